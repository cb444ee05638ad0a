package io.snapds.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.yetus.audience.InterfaceAudience;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering across modules (docs/design.md, "Layers"), checked on the compiled classes of every
 * module at once: the core's own rules are in its {@code ArchitectureTest}; these are the ones no
 * single module can see.
 *
 * <ul>
 *   <li>An adapter (every module but the core) never uses the core's {@code store} (the physical
 *       layout, behind the operations), and of the core's root, {@code admin} and {@code lock}
 *       packages only the types docs/api.md lists: the rest are the operations' internals. The
 *       engine packages {@code read}, {@code write}, {@code tx}, {@code schema} and {@code security}
 *       are what adapters are built on.
 *   <li>No adapter uses another, except the edges listed in {@link #ALLOWED_EDGES}, each with its
 *       reason.
 *   <li>Each module's section of docs/api.md ("### `package` (module `name`)") lists exactly the
 *       module's public types, as the core's test checks the core's sections; and every package of
 *       every module says whether it is public or internal.
 * </ul>
 */
class ModulesArchitectureTest {
  private static final String CORE = "snapshot-dataset";
  private static final String CORE_ROOT = "io.snapds.dataset";
  /** The modules whose classes ship, in build order; the benchmarks and test beds are not here. */
  private static final List<String> MODULES = List.of(CORE, "snapshot-mapreduce", "snapshot-hive", "snapshot-cli",
      "snapshot-events", "snapshot-sink-plugin", "snapshot-spark");
  /** Core packages an adapter may use whole: the reading core, the write protocol, transactions, schemas, login. */
  private static final Set<String> ENGINE_PACKAGES = Set.of(CORE_ROOT + ".read", CORE_ROOT + ".write",
      CORE_ROOT + ".tx", CORE_ROOT + ".schema", CORE_ROOT + ".security");
  /** Adapter to adapter dependencies that are meant, and why. */
  static final Map<String, String> ALLOWED_EDGES = Map.of(
      "snapshot-hive -> snapshot-mapreduce", "Hive runs MapReduce: its SerDe hands rows on as the MapReduce "
          + "formats' SnapshotRowWritable",
      "snapshot-sink-plugin -> snapshot-mapreduce", "a CDAP batch source and sink are a MapReduce input and "
          + "output format; the plugin configures the module's formats",
      "snapshot-events -> snapshot-mapreduce", "the example job DerivedSnapshotJob (io.snapds.events.example) "
          + "only; an optional dependency, so a Kafka consumer's class path has no MapReduce");
  /**
   * Internal core types an adapter still uses, each a known debt with the place that explains it;
   * the test fails when one is no longer used, so the list only shrinks.
   */
  static final Map<String, String> KNOWN_DEBTS = Map.of();
  private static final Path API_DOC = Path.of("..", "docs", "api.md");
  private static final Pattern SECTION = Pattern.compile("^`([\\w.]+)` \\(module `([\\w-]+)`\\)");
  private static final Pattern LISTED = Pattern.compile("^- `(io\\.snapds\\.[\\w.]+)`", Pattern.MULTILINE);

  private static final Map<String, List<JavaClass>> BY_MODULE = new LinkedHashMap<>();
  private static final Map<String, String> MODULE_OF = new TreeMap<>();

  @BeforeAll
  static void importEveryModule() {
    Map<String, Path> dirs = new LinkedHashMap<>();
    for (String module : MODULES) {
      Path classes = Path.of("..", module, "target", "classes").toAbsolutePath().normalize();
      assertTrue(Files.isDirectory(classes), "no compiled classes of " + module + " at " + classes
          + ": build the module first (this module depends on it)");
      dirs.put(module, classes);
    }
    // one import of all modules, so that a class another module uses is the class itself (with its
    // enclosing class and annotations), not a stub
    JavaClasses all = new ClassFileImporter().importPaths(dirs.values());
    for (String module : MODULES) {
      List<JavaClass> of = new ArrayList<>();
      for (JavaClass c : all) {
        boolean here = c.getSource().map(src -> src.getUri().toString().startsWith(dirs.get(module).toUri().toString()))
            .orElse(false);
        if (here) {
          of.add(c);
          MODULE_OF.put(c.getName(), module);
        }
      }
      BY_MODULE.put(module, of);
    }
  }

  /** docs/api.md's public types, by the module whose section lists them (core sections: the core). */
  private static Map<String, Set<String>> listedByModule() throws IOException {
    String doc = Files.readString(API_DOC);
    Map<String, Set<String>> out = new TreeMap<>();
    for (String section : doc.substring(doc.indexOf("## Public types")).split("\n### ")) {
      String heading = section.lines().findFirst().orElse("");
      Matcher h = SECTION.matcher(heading);
      String module = h.find() ? h.group(2) : CORE;
      Matcher m = LISTED.matcher(section);
      while (m.find()) {
        out.computeIfAbsent(module, k -> new TreeSet<>()).add(m.group(1));
      }
    }
    return out;
  }

  @Test
  void adaptersUseNoStoreAndOfTheOperationsOnlyTheListedApi() throws IOException {
    Set<String> api = new TreeSet<>();
    listedByModule().values().forEach(api::addAll);
    Map<String, String> violations = new TreeMap<>();
    for (String module : MODULES.subList(1, MODULES.size())) {
      for (JavaClass c : BY_MODULE.get(module)) {
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
          JavaClass target = outermost(d.getTargetClass().getBaseComponentType());
          if (!CORE.equals(MODULE_OF.get(target.getName()))) {
            continue;
          }
          String pkg = target.getPackageName();
          boolean allowed = !pkg.startsWith(CORE_ROOT + ".store")
              && (ENGINE_PACKAGES.contains(pkg) || api.contains(target.getName()));
          if (!allowed) {
            violations.putIfAbsent(module + " -> " + target.getName(), d.getDescription());
          }
        }
      }
    }
    Map<String, String> unexpected = new TreeMap<>(violations);
    unexpected.keySet().removeAll(KNOWN_DEBTS.keySet());
    assertEquals(Map.of(), unexpected,
        "adapters reaching into the core's internals (use the API of docs/api.md or an engine package)");
    Set<String> paid = new TreeSet<>(KNOWN_DEBTS.keySet());
    paid.removeAll(violations.keySet());
    assertEquals(Set.of(), paid, "known debts no class has any more: remove them from KNOWN_DEBTS");
  }

  @Test
  void noAdapterUsesAnotherExceptTheListedEdges() {
    Map<String, String> found = new TreeMap<>();
    for (String module : MODULES.subList(1, MODULES.size())) {
      for (JavaClass c : BY_MODULE.get(module)) {
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
          String other = MODULE_OF.get(d.getTargetClass().getBaseComponentType().getName());
          if (other != null && !other.equals(module) && !other.equals(CORE)) {
            found.putIfAbsent(module + " -> " + other, d.getDescription());
          }
        }
      }
    }
    Map<String, String> unexpected = new TreeMap<>(found);
    unexpected.keySet().removeAll(ALLOWED_EDGES.keySet());
    assertEquals(Map.of(), unexpected, "an adapter uses another (move the shared part into the core, or list "
        + "the edge with its reason)");
    Set<String> unused = new TreeSet<>(ALLOWED_EDGES.keySet());
    unused.removeAll(found.keySet());
    assertEquals(Set.of(), unused, "edges listed as allowed that no class uses any more: remove them");
  }

  @Test
  void theExamplesAloneUseMapReduceInTheEventsModule() {
    List<String> outside = new ArrayList<>();
    for (JavaClass c : BY_MODULE.get("snapshot-events")) {
      if (c.getPackageName().startsWith("io.snapds.events.example")) {
        continue;
      }
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        if ("snapshot-mapreduce".equals(MODULE_OF.get(d.getTargetClass().getBaseComponentType().getName()))) {
          outside.add(d.getDescription());
        }
      }
    }
    assertEquals(List.of(), outside, "snapshot-mapreduce is an optional dependency of the events module: only "
        + "its examples may use it");
  }

  @Test
  void everyModulesApiSectionListsExactlyItsPublicTypes() throws IOException {
    Map<String, Set<String>> listed = listedByModule();
    Map<String, Set<String>> undocumented = new TreeMap<>();
    Map<String, Set<String>> stale = new TreeMap<>();
    for (String module : MODULES.subList(1, MODULES.size())) {
      Set<String> inCode = new TreeSet<>();
      for (JavaClass c : BY_MODULE.get(module)) {
        if (c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC)
            && c.getPackage().isAnnotatedWith(InterfaceAudience.Public.class)
            && !c.isAnnotatedWith(InterfaceAudience.Private.class)) {
          inCode.add(c.getName());
        }
      }
      Set<String> doc = listed.getOrDefault(module, Set.of());
      Set<String> missing = new TreeSet<>(inCode);
      missing.removeAll(doc);
      Set<String> gone = new TreeSet<>(doc);
      gone.removeAll(inCode);
      if (!missing.isEmpty()) {
        undocumented.put(module, missing);
      }
      if (!gone.isEmpty()) {
        stale.put(module, gone);
      }
    }
    assertEquals(Map.of(), undocumented, "public types missing from their module's section of docs/api.md");
    assertEquals(Map.of(), stale, "docs/api.md lists types that are not public API of that module");
    Set<String> unknownModules = new TreeSet<>(listed.keySet());
    MODULES.forEach(unknownModules::remove);
    assertEquals(Set.of(), unknownModules, "docs/api.md names modules that do not exist");
  }

  @Test
  void everyPackageOfEveryModuleSaysWhetherItIsPublicOrInternal() {
    Set<String> unmarked = new TreeSet<>();
    for (String module : MODULES.subList(1, MODULES.size())) {
      for (JavaClass c : BY_MODULE.get(module)) {
        if (!c.getPackage().isAnnotatedWith(InterfaceAudience.Public.class)
            && !c.getPackage().isAnnotatedWith(InterfaceAudience.Private.class)) {
          unmarked.add(module + ": " + c.getPackageName());
        }
      }
    }
    assertEquals(Set.of(), unmarked, "packages without @InterfaceAudience in their package-info");
  }

  private static JavaClass outermost(JavaClass c) {
    JavaClass out = c;
    while (out.getEnclosingClass().isPresent()) {
      out = out.getEnclosingClass().get();
    }
    return out;
  }
}
