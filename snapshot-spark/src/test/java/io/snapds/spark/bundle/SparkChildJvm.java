package io.snapds.spark.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own for Spark with "Spark's jars" only on its class path: this test's class path
 * without the reactor's classes and jars (the snapds modules, this module's classes and test
 * classes) and without every jar the connector brings to Spark or that only the mini cluster and
 * the tests use (HBase, Tephra, thrift, Guice, Failsafe, Micrometer, OpenTelemetry, ...). That is
 * Spark 4.0.1's dependency tree as this build resolves it, with the full Hadoop 3.4.1 where a Spark
 * distribution has Hadoop's shaded client (docs/spark.md, "What was checked, and what not").
 */
final class SparkChildJvm {
  /** Jars of the test class path that the connector brings (in its bundle or by its pom), or that only the mini cluster and tests use. */
  private static final List<String> NOT_SPARKS = List.of("/io/snapds/", "/org/apache/hbase/", "/org/apache/tephra/",
      "/org/apache/thrift/", "/com/google/inject/", "/aopalliance/", "/javax/inject/", "/it/unimi/dsi/",
      "/dev/failsafe/", "/io/micrometer/", "/org/hdrhistogram/", "/org/latencyutils/", "/io/opentelemetry/",
      "/org/jruby/", "/org/apache/yetus/", "/io/prometheus/", "/io/dropwizard/metrics/metrics-jmx/",
      "/org/junit/", "/org/opentest4j/", "/org/apiguardian/", "/info/picocli/", "/com/google/protobuf/protobuf-java/2.5.0/");

  private SparkChildJvm() {}

  /** Spark's jars, as above, in the order of this test's class path. */
  static List<String> sparksJars() {
    List<String> jars = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String path = entry.replace('\\', '/').replaceAll("/+$", "");
      if (path.contains("/target/") || NOT_SPARKS.stream().anyMatch(path::contains)) {
        continue; // the reactor's own classes and jars, or a jar the connector brings
      }
      jars.add(entry);
    }
    return jars;
  }

  /** This module's test classes (for a class path that runs {@link ReadmeExampleMain} as it is). */
  static String testClasses() throws Exception {
    return Path.of(ReadmeExampleMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** The connector's {@code snapshot-spark-<version>-bundle.jar} in {@code target/}, which the package phase builds. */
  static Path bundleJar() throws Exception {
    try (var files = Files.list(Path.of("target"))) {
      return files.filter(f -> f.getFileName().toString().startsWith("snapshot-spark-")
          && f.getFileName().toString().endsWith("-bundle.jar")).findFirst().orElseThrow(
              () -> new IllegalStateException("no snapshot-spark-*-bundle.jar in target/: run the package phase first"))
          .toAbsolutePath();
    }
  }

  /**
   * Runs {@code java -cp CLASS_PATH ARGS...} (with the JDK 17 flags of the build's tests) and the
   * environment variables given, its output in a log file under {@code target/}; fails if it did
   * not exit with 0, showing the output. Returns the {@code result: } lines it printed.
   */
  static List<String> run(String logPrefix, List<String> jvmOptions, List<String> classPath, List<String> args,
      Map<String, String> environment) throws Exception {
    return results(output(logPrefix, jvmOptions, classPath, args, environment, null));
  }

  /** The {@code result: } lines of a child's output. */
  static List<String> results(List<String> output) {
    return output.stream().filter(l -> l.startsWith("result: ")).toList();
  }

  /**
   * As {@link #run}, with the file {@code input} (unless null) as the child's standard input; returns
   * every line of its output (standard output and error).
   */
  static List<String> output(String logPrefix, List<String> jvmOptions, List<String> classPath, List<String> args,
      Map<String, String> environment, Path input) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g"));
    command.addAll(Arrays.asList(System.getProperty("snapds.jdk17.flags", "").trim().split("\\s+")));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath)));
    command.addAll(args);
    command.removeIf(String::isEmpty);
    Path log = Files.createTempFile(Path.of("target"), logPrefix, ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    if (input != null) {
      builder.redirectInput(input.toFile());
    }
    Process child = builder.start();
    if (!child.waitFor(10, TimeUnit.MINUTES)) {
      child.destroyForcibly();
      throw new IllegalStateException("the child JVM did not end in 10 minutes; its output: " + log);
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    List<String> shown = lines.stream().filter(l -> !l.isBlank()).toList();
    assertEquals(0, child.exitValue(), "the child JVM failed; the end of its output (" + log + "):\n"
        + String.join("\n", shown.subList(Math.max(0, shown.size() - 200), shown.size())));
    return lines;
  }
}
