package io.snapds.dataset;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.yetus.audience.InterfaceAudience;
import org.junit.jupiter.api.Test;

/**
 * The layering of the core module and its public API, as {@code docs/design.md} and
 * {@code docs/api.md} describe them, checked against the compiled classes so they stay true.
 */
class ArchitectureTest {
  private static final String ROOT = "io.snapds.dataset";
  private static final JavaClasses CORE = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages(ROOT);
  private static final Path API_DOC = Path.of("..", "docs", "api.md");
  private static final Pattern LISTED = Pattern.compile("^- `(io\\.snapds\\.[\\w.]+)`", Pattern.MULTILINE);

  @Test
  void noClassOfTheCoreUsesMapReduce() {
    // the formats are module snapshot-mapreduce; the core's users need no MapReduce on their classpath
    noClasses().should().dependOnClassesThat().resideInAnyPackage("org.apache.hadoop.mapred..",
            "org.apache.hadoop.mapreduce..", "org.apache.hadoop.hbase.mapreduce..")
        .check(CORE);
  }

  @Test
  void theCoreHoldsNoMapReducePackage() {
    // snapshot-mapreduce keeps the package name io.snapds.dataset.mapreduce; one module owns it
    assertTrue(CORE.stream().noneMatch(c -> c.getPackageName().startsWith(ROOT + ".mapreduce")),
        "classes of " + ROOT + ".mapreduce in the core module");
  }

  @Test
  void operationsWorkOnTheirContextNeverOnTheFacade() {
    // SnapshotDataset builds one OperationsContext and the operations on it; an operation that
    // called back into the facade would make the two a cycle again. The exceptions only take a
    // dataset in: SnapshotDatasets creates and returns it; Reconciler.runOnce and Relay.of are
    // public entry points whose signatures take one (docs/api.md), and they only unwrap its
    // context; so is PublishGroup, whose members are datasets. Other packages (the reading core, the MapReduce formats) are the facade's clients.
    noClasses().that().resideInAPackage(ROOT)
        .and(not(belongToAnyOf(SnapshotDataset.class, SnapshotDatasets.class, Reconciler.class, Relay.class,
            PublishGroup.class)))
        .should().dependOnClassesThat().belongToAnyOf(SnapshotDataset.class)
        .because("operations receive the OperationsContext (docs/design.md, Layers)")
        .check(CORE);
  }

  @Test
  void theStoreKnowsOnlyTheDatasetsValuesAndItsLocks() {
    noClasses().that().resideInAPackage(ROOT + ".store..")
        .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".admin..", ROOT + ".mapreduce..",
            ROOT + ".read..", ROOT + ".security..", ROOT + ".tx..")
        .check(CORE);
  }

  @Test
  void locksKnowNothingOfTheStoreAdminOrEngines() {
    noClasses().that().resideInAPackage(ROOT + ".lock..")
        .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".store..", ROOT + ".admin..",
            ROOT + ".mapreduce..", ROOT + ".read..", ROOT + ".security..", ROOT + ".tx..")
        .check(CORE);
  }

  @Test
  void everyPackageSaysWhetherItIsPublicOrInternal() {
    Set<String> unmarked = new TreeSet<>();
    for (JavaPackage p : CORE.getPackage(ROOT).getSubpackagesInTree()) {
      if (!p.getClasses().isEmpty() && audience(p).isEmpty()) {
        unmarked.add(p.getName());
      }
    }
    if (audience(CORE.getPackage(ROOT)).isEmpty()) {
      unmarked.add(ROOT);
    }
    assertTrue(unmarked.isEmpty(), "packages without @InterfaceAudience in their package-info: " + unmarked);
  }

  @Test
  void thePublicTypesAreExactlyTheOnesDocsApiListsUnderThatHeading() throws IOException {
    Set<String> inCode = CORE.stream()
        .filter(c -> c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC))
        .filter(c -> audience(c.getPackage()).orElse("").equals("Public"))
        .filter(c -> !c.isAnnotatedWith(InterfaceAudience.Private.class))
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    String doc = Files.readString(API_DOC);
    Set<String> listed = new TreeSet<>();
    // sections of other modules ("### `pkg` (module `x`)") list types this module does not hold
    for (String section : doc.substring(doc.indexOf("## Public types")).split("\n### ")) {
      if (!section.lines().findFirst().orElse("").contains("(module `")) {
        Matcher m = LISTED.matcher(section);
        while (m.find()) {
          listed.add(m.group(1));
        }
      }
    }
    Set<String> undocumented = new TreeSet<>(inCode);
    undocumented.removeAll(listed);
    Set<String> stale = new TreeSet<>(listed);
    stale.removeAll(inCode);
    assertEquals(Set.of(), undocumented, "public types missing from docs/api.md (list them there, or mark them "
        + "@InterfaceAudience.Private)");
    assertEquals(Set.of(), stale, "docs/api.md lists types that are not public API in the code");
  }

  private static java.util.Optional<String> audience(JavaPackage p) {
    if (p.isAnnotatedWith(InterfaceAudience.Public.class)) {
      return java.util.Optional.of("Public");
    }
    if (p.isAnnotatedWith(InterfaceAudience.Private.class)) {
      return java.util.Optional.of("Private");
    }
    return java.util.Optional.empty();
  }
}
