package io.snapds.spark.bundle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spark-submit --packages} on a Spark built with Hive support, as Spark's own downloads are:
 * its {@code jars/} holds libthrift 0.16.0, which Spark's class loader offers before the resolved
 * packages, so Tephra 0.16.1's client, built on thrift 0.9.3, meets 0.16's {@code TTransport} and
 * fails ({@code AbstractMethodError}: {@code TFramedTransport} does not implement
 * {@code checkReadBytesAvailable}). docs/spark.md's recipe for it, run here: the module with
 * {@code snapshot-tephra-relocated} (Tephra's client with its own thrift under
 * {@code io.snapds.shaded.thrift}), and Tephra's and thrift's own jars excluded.
 */
class SparkPackagesBesideHiveThriftIT {
  /** docs/spark.md's --exclude-packages for a Spark with Hive support. */
  static final String EXCLUDES = "org.apache.tephra:tephra-core-shaded,org.apache.thrift:libthrift";

  @Test
  void theReadmeExampleRunsBesideSparksLibthrift016WithTephraRelocated() throws Exception {
    String copied = System.getProperty("snapds.it.libthrift");
    Path libthrift = copied != null ? Path.of(copied)
        : SparkSubmitPackages.localRepository().resolve("org/apache/thrift/libthrift/0.16.0/libthrift-0.16.0.jar");
    if (!Files.isRegularFile(libthrift)) {
      throw new IllegalStateException("no " + libthrift + " (Spark 4.0.1's libthrift): the module's pom copies it"
          + " before the integration tests (maven-dependency-plugin, execution it-jars)");
    }
    SparkSubmitPackages.runReadmeExample(List.of("snapshot-spark", "snapshot-tephra-relocated"), EXCLUDES,
        List.of(libthrift.toString()));
  }
}
