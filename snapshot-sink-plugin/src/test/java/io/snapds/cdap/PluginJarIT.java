package io.snapds.cdap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.annotation.Plugin;
import io.cdap.cdap.etl.api.batch.BatchSink;
import io.cdap.cdap.etl.api.batch.BatchSource;
import io.cdap.cdap.etl.api.batch.PostAction;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Opens the plugin jar and the plugin JSON that {@code mvn package} built (run by failsafe in the
 * integration-test phase) and checks what CDAP reads from them: the plugin classes and their
 * annotations, the exported packages, the embedded libraries, the parents, and widgets whose
 * properties are exactly the config fields.
 */
class PluginJarIT {
  private static JarFile jar;
  private static JsonObject pluginJson;

  @BeforeAll
  static void open() throws IOException {
    String jarPath = System.getProperty("plugin.jar");
    String jsonPath = System.getProperty("plugin.json");
    assertNotNull(jarPath, "system property plugin.jar (set by the failsafe configuration)");
    assertTrue(new File(jarPath).isFile(), "the plugin jar " + jarPath + " was built");
    jar = new JarFile(jarPath);
    pluginJson = parse(Files.readString(Path.of(jsonPath))).getAsJsonObject();
  }

  @Test
  void manifestExportsThePluginPackages() throws IOException {
    String exported = jar.getManifest().getMainAttributes().getValue("Export-Package");
    assertNotNull(exported, "Export-Package in the manifest");
    Set<String> packages = Arrays.stream(exported.split(",")).map(p -> p.split(";")[0].trim())
        .collect(Collectors.toSet());
    assertEquals(Set.of(System.getProperty("plugin.export.packages").split(",")), packages);
    for (String plugin : List.of(SnapshotSink.class.getName(), SnapshotSource.class.getName(),
        PipelineSnapshotOutputFormat.class.getName(), PipelineSnapshotInputFormat.class.getName())) {
      assertTrue(packages.contains(plugin.substring(0, plugin.lastIndexOf('.'))), plugin + "'s package is exported");
    }
  }

  @Test
  void jarHoldsThePluginClassesWithTheirAnnotations() throws Exception {
    assertNotNull(jar.getEntry("io/snapds/cdap/SnapshotSink.class"));
    assertNotNull(jar.getEntry("io/snapds/cdap/SnapshotSource.class"));
    assertNotNull(jar.getEntry("io/snapds/cdap/PipelineSnapshotOutputFormat.class"));
    // load them from the jar alone (CDAP's API from the test's class loader, as CDAP's would be)
    try (URLClassLoader loader = new URLClassLoader(new URL[] {new File(jar.getName()).toURI().toURL()},
        BatchSink.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.snapds.")) {
              synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : findClass(name);
              }
            }
            return super.loadClass(name, resolve);
          }
        }) {
      Class<?> sink = loader.loadClass(SnapshotSink.class.getName());
      assertTrue(sink.getClassLoader() == loader, "the sink class comes from the jar");
      assertTrue(BatchSink.class.isAssignableFrom(sink));
      assertEquals(BatchSink.PLUGIN_TYPE, sink.getAnnotation(Plugin.class).type());
      assertEquals("SnapshotDataset", sink.getAnnotation(Name.class).value());
      Class<?> source = loader.loadClass(SnapshotSource.class.getName());
      assertTrue(BatchSource.class.isAssignableFrom(source));
      assertEquals(BatchSource.PLUGIN_TYPE, source.getAnnotation(Plugin.class).type());
      assertEquals("SnapshotDataset", source.getAnnotation(Name.class).value());
      Class<?> action = loader.loadClass(SnapshotPublishAction.class.getName());
      assertTrue(PostAction.class.isAssignableFrom(action));
      assertEquals(PostAction.PLUGIN_TYPE, action.getAnnotation(Plugin.class).type());
      assertEquals("SnapshotPublish", action.getAnnotation(Name.class).value());
    }
  }

  @Test
  void libraryJarsAreEmbeddedExceptWhatTheRuntimeProvides() {
    List<String> libs = new ArrayList<>();
    for (JarEntry e : Collections.list(jar.entries())) {
      if (e.getName().startsWith("lib/") && e.getName().endsWith(".jar")) {
        libs.add(e.getName().substring("lib/".length()));
      }
    }
    for (String needed : List.of("snapshot-dataset-", "hbase-client-", "tephra-core-shaded-", "guava-33", "failsafe-",
        "commons-codec-")) {
      assertTrue(libs.stream().anyMatch(l -> l.startsWith(needed)), "lib/ has " + needed + "*: " + libs);
    }
    // gson: CDAP's own (2.3.1) is loaded parent first whatever lib/ holds; the plugin uses that one
    for (String provided : List.of("cdap-", "hadoop-", "slf4j-", "log4j-", "reload4j-", "logback-",
        "hbase-server-", "hbase-mapreduce-", "junit-", "gson-")) {
      assertFalse(libs.stream().anyMatch(l -> l.startsWith(provided)), "lib/ must not have " + provided + "*: " + libs);
    }
  }

  @Test
  void pluginJsonNamesTheParentsAndCarriesWidgetsAndDocs() {
    List<String> parents = new ArrayList<>();
    pluginJson.getAsJsonArray("parents").forEach(p -> parents.add(p.getAsString()));
    assertEquals(List.of("system:cdap-data-pipeline[6.0.0,7.0.0)", "system:cdap-data-streams[6.0.0,7.0.0)"), parents);
    JsonObject properties = pluginJson.getAsJsonObject("properties");
    assertEquals(Set.of("widgets.SnapshotDataset-batchsink", "widgets.SnapshotDataset-batchsource",
        "doc.SnapshotDataset-batchsink", "doc.SnapshotDataset-batchsource", "widgets.SnapshotPublish-postaction",
        "doc.SnapshotPublish-postaction"),
        properties.entrySet().stream().map(Map.Entry::getKey).collect(Collectors.toSet()));
    assertTrue(properties.get("doc.SnapshotDataset-batchsink").getAsString().startsWith("# Snapshot Dataset Batch Sink"));
  }

  @Test
  void sinkWidgetPropertiesAreExactlyTheSinkConfigFields() {
    assertEquals(PluginConfigs.propertyFields(SnapshotSinkConfig.class).keySet(),
        widgetProperties("widgets.SnapshotDataset-batchsink"));
  }

  @Test
  void publishActionWidgetPropertiesAreExactlyItsConfigFields() {
    assertEquals(PluginConfigs.propertyFields(SnapshotPublishConfig.class).keySet(),
        widgetProperties("widgets.SnapshotPublish-postaction"));
  }

  @Test
  void sourceWidgetPropertiesAreExactlyTheSourceConfigFields() {
    assertEquals(PluginConfigs.propertyFields(SnapshotSourceConfig.class).keySet(),
        widgetProperties("widgets.SnapshotDataset-batchsource"));
  }

  /**
   * CDAP 6.11's artifact inspector ({@code DefaultArtifactInspector.isPlugin}) reads every class
   * directly in an exported package with an {@code Opcodes.ASM5} visitor, and refuses the whole
   * artifact on the first class it cannot read: a nested, inner, anonymous or enum-switch helper
   * class, or its host, carries NestHost/NestMembers attributes ("NestMember requires ASM7").
   */
  @Test
  void exportedPackagesHoldOnlyClassesCdapsInspectorCanRead() throws IOException {
    List<String> exported = Arrays.asList(System.getProperty("plugin.export.packages").split(","));
    List<String> inspected = new ArrayList<>();
    for (JarEntry e : Collections.list(jar.entries())) {
      String name = e.getName();
      int slash = name.lastIndexOf('/');
      if (!name.endsWith(".class") || slash < 0 || !exported.contains(name.substring(0, slash).replace('/', '.'))) {
        continue;
      }
      assertFalse(name.contains("$"), "a nested, inner or anonymous class in an exported package: " + name);
      try (InputStream in = jar.getInputStream(e)) {
        Asm5Inspection.read(in.readAllBytes());
      } catch (UnsupportedOperationException ex) {
        throw new AssertionError(name + " cannot be read by an ASM5 visitor, as CDAP's inspector reads it: " + ex.getMessage(), ex);
      }
      inspected.add(name);
    }
    assertTrue(inspected.contains("io/snapds/cdap/SnapshotSink.class"), "the exported classes were found: " + inspected);
  }

  @Test
  void pluginDocsInTheJsonSayWhichJavaTheRuntimeNeeds() {
    JsonObject properties = pluginJson.getAsJsonObject("properties");
    for (String doc : List.of("doc.SnapshotDataset-batchsink", "doc.SnapshotDataset-batchsource",
        "doc.SnapshotPublish-postaction")) {
      assertTrue(properties.get(doc).getAsString().contains("Java 17"), doc + " states that the plugin needs Java 17");
    }
  }

  private static JsonElement parse(String json) {
    return new JsonParser().parse(json); // Gson 2.3.1, as CDAP has it
  }

  /** Property names of a widget JSON (a string inside the plugin JSON): its groups and outputs. */
  private static Set<String> widgetProperties(String key) {
    JsonObject widget = parse(pluginJson.getAsJsonObject("properties").get(key).getAsString())
        .getAsJsonObject();
    Set<String> names = new TreeSet<>();
    for (JsonElement group : widget.getAsJsonArray("configuration-groups")) {
      for (JsonElement p : group.getAsJsonObject().getAsJsonArray("properties")) {
        assertTrue(names.add(p.getAsJsonObject().get("name").getAsString()), "property listed once: " + p);
      }
    }
    JsonArray outputs = widget.getAsJsonArray("outputs");
    if (outputs != null) {
      outputs.forEach(o -> names.add(o.getAsJsonObject().get("name").getAsString()));
    }
    return names;
  }

  @Test
  void widgetFilesInTheSourceTreeAreTheOnesPackaged() throws IOException {
    for (String name : List.of("SnapshotDataset-batchsink", "SnapshotDataset-batchsource")) {
      JsonElement file = parse(Files.readString(Path.of("widgets", name + ".json"), StandardCharsets.UTF_8));
      JsonElement packaged = parse(pluginJson.getAsJsonObject("properties")
          .get("widgets." + name).getAsString());
      assertEquals(file, packaged);
    }
  }
}
