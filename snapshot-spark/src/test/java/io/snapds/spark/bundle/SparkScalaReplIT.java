package io.snapds.spark.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's Spark example in Scala, typed line by line into Scala 2.13.16's REPL (the one Spark
 * 4.0.1's {@code spark-shell} is built on) on its standard input, in a child JVM whose class path
 * is the connector's bundle, Spark's jars ({@link SparkChildJvm#sparksJars}) and the REPL's jars:
 * docs/spark.md's Scala block, read from the doc, checked against the Java API
 * ({@link ReadmeExampleCluster}).
 *
 * <p>It is not {@code spark-shell} itself: Spark's REPL module ({@code org.apache.spark:spark-repl_2.13}
 * 4.x, which holds {@code org.apache.spark.repl.Main}) is not served by the Maven repository this
 * build reaches. The Spark settings reach the REPL as {@code spark-shell} passes its {@code --conf}
 * settings, as {@code spark.*} system properties that {@code SparkConf} reads, and the first line
 * typed makes the {@code spark} that {@code spark-shell} makes; the bundle is on the REPL's class
 * path as {@code --jars} puts it there.
 */
class SparkScalaReplIT {
  /**
   * What is typed: the line that makes {@code spark} as {@code spark-shell} does, docs/spark.md's
   * Scala block as it is (its only one), what they read printed as {@code result:} lines for the
   * parent to check, then {@code :quit}.
   */
  static List<String> typed() throws Exception {
    Path doc = Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("spark.md");
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    int start = text.indexOf("```scala\n");
    assertTrue(start >= 0 && text.indexOf("```scala\n", start + 1) < 0, "one Scala block in " + doc);
    int end = text.indexOf("```", start + "```scala\n".length());
    List<String> lines = new ArrayList<>();
    lines.add("val spark = org.apache.spark.sql.SparkSession.builder().getOrCreate()");
    lines.addAll(text.substring(start + "```scala\n".length(), end).lines().toList());
    lines.add("println(\"result: A-17 \" + prices.where(\"sku = 'A-17'\").collect().mkString(\"[\", \", \", \"]\"))");
    lines.add("println(\"result: release count \" + "
        + "spark.sql(\"SELECT count(*) FROM snapds.shop.prices VERSION AS OF 'release'\").first().getLong(0))");
    lines.add("spark.stop()");
    lines.add(":quit");
    return lines;
  }

  @Test
  void theReadmeExampleInScalaRunsInScalasReplOnItsStandardInput() throws Exception {
    Path bundle = SparkChildJvm.bundleJar();
    Path work = Files.createDirectories(Path.of("target", "scala-repl-it").toAbsolutePath());
    Path input = work.resolve("example.scala");
    Files.write(input, typed(), StandardCharsets.UTF_8);
    try (ReadmeExampleCluster cluster = ReadmeExampleCluster.start()) {
      String port = cluster.zookeeperPort();
      List<String> classPath = new ArrayList<>();
      classPath.add(bundle.toString());
      classPath.add(SparkChildJvm.testClasses()); // the tests' log settings
      // without the jline 3.9.0 that Hadoop 3.4.1's hadoop-yarn-client depends on (this build's Spark
      // class path has the full Hadoop): Scala 2.13.16's REPL needs its own 3.27.1 (with 3.9.0 first
      // it failed at its start: NoSuchFieldError: COMPLETE_MATCHER_CAMELCASE)
      SparkChildJvm.sparksJars().stream().filter(jar -> !jar.replace('\\', '/').contains("/org/jline/jline/"))
          .forEach(classPath::add);
      classPath.addAll(replJars());
      List<String> settings = List.of(
          // as bin/spark-shell sets it (SPARK_SUBMIT_OPTS): without it the REPL fails at its start with
          // "Failed to initialize compiler: object scala in compiler mirror not found"
          "-Dscala.usejavacp=true",
          "-Dspark.master=local[2]",
          "-Dspark.app.name=Spark shell",
          "-Dspark.ui.enabled=false",
          "-Dspark.sql.shuffle.partitions=2",
          "-Dspark.hadoop.hbase.zookeeper.quorum=localhost",
          "-Dspark.hadoop.hbase.zookeeper.property.clientPort=" + port,
          "-Dspark.hadoop.data.tx.zookeeper.quorum=localhost:" + port,
          "-Dspark.sql.catalog.snapds=io.snapds.spark.SnapshotCatalog");

      List<String> output = SparkChildJvm.output("scala-repl-", settings, classPath,
          List.of("scala.tools.nsc.MainGenericRunner"), Map.of(), input);

      List<String> errors = output.stream().filter(l -> l.contains("Exception") || l.contains("error:")
          || l.contains("Error")).toList();
      assertEquals(List.of(), errors, "no exception and no compile error in the REPL's output");
      // the REPL does not echo what it reads from a pipe: a line's output follows the prompt
      cluster.assertExampleRan(SparkChildJvm.results(output.stream().map(l -> l.replaceFirst("^(scala> )+", ""))
          .toList()));
    }
  }

  /** Scala 2.13.16's compiler, jline and diff-utils, which the module's pom copies before the ITs. */
  private static List<String> replJars() throws Exception {
    Path dir = Path.of(System.getProperty("snapds.it.scala.repl", "target/it-jars/scala-repl"));
    assertTrue(Files.isDirectory(dir), "no " + dir + ": the module's pom copies the Scala REPL's jars there"
        + " before the integration tests (maven-dependency-plugin, execution it-jars)");
    try (Stream<Path> jars = Files.list(dir)) {
      List<String> out = jars.filter(p -> p.toString().endsWith(".jar")).map(Path::toString).sorted().toList();
      assertEquals(3, out.size(), "scala-compiler, jline, java-diff-utils in " + dir + ": " + out);
      return out;
    }
  }
}
