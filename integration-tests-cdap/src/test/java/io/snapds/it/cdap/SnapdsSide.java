package io.snapds.it.cdap;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The child JVM that runs the Tephra 0.16.1 transaction service and answers questions about
 * datasets ({@code io.snapds.it.cdap.child.SnapdsSideMain}). Its classpath is the plugin jar's own
 * {@code lib/} first (the snapds core, the HBase client, Tephra), then Hadoop and logging from this
 * module's dependencies (without CDAP, Spark or any Tephra). Its log is {@code snapds-side.log} in
 * the work directory ({@code target/snapds-side}).
 */
final class SnapdsSide implements AutoCloseable {
  private final Process process;
  private final BufferedReader answers;
  private final Writer commands;

  private SnapdsSide(Process process) {
    this.process = process;
    this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  static SnapdsSide start(String zookeeperQuorum, Path pluginJar, Path workDir) throws IOException {
    List<String> classpath = new ArrayList<>();
    classpath.add(System.getProperty("child.classes"));
    classpath.addAll(extractLibraries(pluginJar, workDir.resolve("plugin-lib")));
    Collections.addAll(classpath, Files.readString(Path.of(System.getProperty("child.classpath"))).trim().split(":"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    // Guice 3's cglib (Tephra's) defines classes through java.lang; HBase's netty reads buffers
    for (String opened : List.of("java.lang", "java.lang.reflect", "java.io", "java.net", "java.nio", "java.util",
        "java.util.concurrent", "sun.nio.ch")) {
      command.add("--add-opens=java.base/" + opened + "=ALL-UNNAMED");
    }
    command.add("-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true");
    command.add("-Dlogback.configurationFile=" + Path.of(System.getProperty("child.classes"), "snapds-side-logback.xml"));
    command.add("-cp");
    command.add(String.join(":", classpath));
    command.add("io.snapds.it.cdap.child.SnapdsSideMain");
    command.add(zookeeperQuorum);
    Process p = new ProcessBuilder(command)
        .redirectError(workDir.resolve("snapds-side.log").toFile())
        .start();
    SnapdsSide side = new SnapdsSide(p);
    String ready = side.answers.readLine();
    if (ready == null || !ready.startsWith("READY")) {
      p.destroyForcibly();
      throw new IllegalStateException("the snapds side JVM did not start (" + ready + "); see "
          + workDir.resolve("snapds-side.log"));
    }
    return side;
  }

  /** The plugin jar's lib/*.jar, copied out: the very libraries a CDAP runtime would load. */
  private static List<String> extractLibraries(Path pluginJar, Path dir) throws IOException {
    Files.createDirectories(dir);
    List<String> out = new ArrayList<>();
    try (JarFile jar = new JarFile(pluginJar.toFile())) {
      for (JarEntry e : Collections.list(jar.entries())) {
        if (e.getName().startsWith("lib/") && e.getName().endsWith(".jar")) {
          Path target = dir.resolve(e.getName().substring("lib/".length()));
          try (InputStream in = jar.getInputStream(e)) {
            Files.copy(in, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
          out.add(target.toString());
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalStateException(pluginJar + " has no lib/*.jar");
    }
    return out;
  }

  /** The dataset's current snapshot, every snapshot, and the rows of the committed ones. */
  synchronized DatasetDump dump(String namespace, String dataset) throws IOException {
    return new DatasetDump(ask("dump " + namespace + " " + dataset));
  }

  /**
   * Every committed snapshot's rows through the snapds Java API, decoded with the schema that
   * snapshot was written with: snapshot id to rows of {field: value as text}, and in
   * {@code schemas} snapshot id to its schema with ids.
   */
  synchronized JsonObject typed(String namespace, String dataset) throws IOException {
    return ask("typed " + namespace + " " + dataset);
  }

  /** Runs the dataset's cleanup in the snapds JVM. */
  synchronized String cleanup(String namespace, String dataset) throws IOException {
    return ask("cleanup " + namespace + " " + dataset).get("cleanup").getAsString();
  }

  private JsonObject ask(String command) throws IOException {
    commands.write(command + "\n");
    commands.flush();
    String line = answers.readLine();
    if (line == null) {
      throw new IllegalStateException("the snapds side JVM ended; see target/snapds-side.log");
    }
    @SuppressWarnings("deprecation")
    JsonObject answer = new JsonParser().parse(line).getAsJsonObject(); // Gson 2.3.1 here
    if (answer.has("error")) {
      throw new IllegalStateException(command + ": " + answer.get("error").getAsString());
    }
    return answer;
  }

  @Override
  public void close() throws Exception {
    try {
      commands.write("quit\n");
      commands.flush();
    } catch (IOException e) {
      // already gone
    }
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
