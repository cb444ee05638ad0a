package io.snapds.spark.bundle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/spark.md's setup, checked: the README's Spark example run in a child JVM whose class path is
 * {@code snapshot-spark-<version>-bundle.jar} and Spark's jars ({@link SparkChildJvm#sparksJars}),
 * against this JVM's mini cluster and a Tephra transaction service announced in its ZooKeeper (the
 * default client factory, as on a cluster; {@link ReadmeExampleCluster}).
 */
class SparkBundleIT {
  @Test
  void theReadmeExampleRunsWithTheBundleAndSparksJarsOnly() throws Exception {
    Path bundle = SparkChildJvm.bundleJar();
    try (ReadmeExampleCluster cluster = ReadmeExampleCluster.start()) {
      List<String> classPath = new ArrayList<>();
      classPath.add(bundle.toString());
      classPath.add(SparkChildJvm.testClasses()); // ReadmeExampleMain (and the tests' log settings)
      classPath.addAll(SparkChildJvm.sparksJars());

      List<String> out = SparkChildJvm.run("readme-example-", List.of(), classPath,
          List.of(ReadmeExampleMain.class.getName(), "localhost", cluster.zookeeperPort()), Map.of());

      cluster.assertExampleRan(out);
      assertTrue(out.stream().anyMatch(l -> l.startsWith("result: snapds classes from") && l.endsWith("-bundle.jar")),
          "the connector came from the bundle: " + out);
      assertTrue(out.stream().anyMatch(l -> l.startsWith("result: hbase client from") && l.endsWith("-bundle.jar")),
          "HBase's client came from the bundle: " + out);
    }
  }
}
