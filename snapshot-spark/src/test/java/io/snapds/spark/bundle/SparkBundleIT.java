package io.snapds.spark.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Scopes;
import com.google.inject.util.Modules;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.tx.TephraServiceClientFactory;
import java.io.File;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TxConstants;
import org.apache.tephra.distributed.TransactionService;
import org.apache.tephra.metrics.MetricsCollector;
import org.apache.tephra.metrics.TxMetricsCollector;
import org.apache.tephra.runtime.ConfigModule;
import org.apache.tephra.runtime.DiscoveryModules;
import org.apache.tephra.runtime.TransactionClientModule;
import org.apache.tephra.runtime.TransactionModules;
import org.apache.tephra.runtime.ZKModule;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;
import org.junit.jupiter.api.Test;

/**
 * docs/spark.md's setup, checked: the README's Spark example run in a child JVM whose class path is
 * {@code snapshot-spark-<version>-bundle.jar} and Spark's jars, against this JVM's mini cluster
 * and a Tephra transaction service announced in its ZooKeeper (the default client factory, as on a
 * cluster). "Spark's jars" are this test's class path without the module's own classes and
 * without every jar the bundle holds or replaces (HBase, Tephra, thrift, Guice, Failsafe,
 * Micrometer, OpenTelemetry, the snapds modules): Spark 4.0.1's dependency tree as this build
 * resolves it, with the full Hadoop 3.4.1 where a Spark distribution has Hadoop's shaded client.
 */
class SparkBundleIT {
  private static final String SCHEMA = "sku string key, price double";
  /** Jars of the test class path that the bundle holds or replaces, or that only the mini cluster and tests use. */
  private static final List<String> NOT_SPARKS = List.of("/io/snapds/", "/org/apache/hbase/", "/org/apache/tephra/",
      "/org/apache/thrift/", "/com/google/inject/", "/aopalliance/", "/javax/inject/", "/it/unimi/dsi/",
      "/dev/failsafe/", "/io/micrometer/", "/org/hdrhistogram/", "/org/latencyutils/", "/io/opentelemetry/",
      "/org/jruby/", "/org/apache/yetus/", "/io/prometheus/", "/io/dropwizard/metrics/metrics-jmx/",
      "/org/junit/", "/org/opentest4j/", "/org/apiguardian/", "/info/picocli/", "/com/google/protobuf/protobuf-java/2.5.0/");

  @Test
  void theReadmeExampleRunsWithTheBundleAndSparksJarsOnly() throws Exception {
    Path bundle = bundleJar();
    MiniCluster cluster = MiniCluster.get();
    Configuration conf = new Configuration(cluster.configuration());
    String port = conf.get("hbase.zookeeper.property.clientPort");
    String quorum = "localhost:" + port;
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, quorum);
    conf.set(TxConstants.Service.CFG_DATA_TX_BIND_ADDRESS, "127.0.0.1");
    try (ServerSocket free = new ServerSocket(0)) {
      conf.setInt(TxConstants.Service.CFG_DATA_TX_BIND_PORT, free.getLocalPort());
    }
    conf.setBoolean(TxConstants.Manager.CFG_DO_PERSIST, false);
    // the service's metrics off: Tephra's DefaultMetricsCollector needs Dropwizard 3's JmxReporter,
    // which the Dropwizard 4 that Spark brings moved (the service runs here, not in a Spark job)
    Injector injector = Guice.createInjector(new ConfigModule(conf), new ZKModule(),
        new DiscoveryModules().getDistributedModules(),
        Modules.override(new TransactionModules().getDistributedModules()).with(
            binder -> binder.bind(MetricsCollector.class).to(TxMetricsCollector.class).in(Scopes.SINGLETON)),
        new TransactionClientModule());
    ZKClientService zookeeper = injector.getInstance(ZKClientService.class);
    zookeeper.startAndWait();
    TransactionService service = injector.getInstance(TransactionService.class);
    service.startAndWait();
    try (TephraServiceClientFactory factory = new TephraServiceClientFactory()) {
      SnapshotDatasets datasets = SnapshotDatasets.using(cluster.connection(), factory.create(conf));
      SnapshotDataset prices = create(datasets, DatasetId.of("shop", "prices"));
      SnapshotDataset copy = create(datasets, DatasetId.of("shop", "prices_copy"));
      SnapshotInfo release = write(prices, Map.of("A-17", 3.5, "B-2", 0.0, "C-9", 1.25));
      prices.manageTags(release.id()).tag("release").commit();
      write(prices, Map.of("A-17", 4.0, "B-2", 0.0, "C-9", 1.25, "D-1", 7.0));

      List<String> out = runChild(bundle, port);

      assertTrue(out.contains("result: A-17 [[A-17,4.0]]"), "the current snapshot's A-17: " + out);
      assertTrue(out.contains("result: release count 3"), "the tagged snapshot's count: " + out);
      assertTrue(out.stream().anyMatch(l -> l.startsWith("result: snapds classes from") && l.endsWith("-bundle.jar")),
          "the connector came from the bundle: " + out);
      assertTrue(out.stream().anyMatch(l -> l.startsWith("result: hbase client from") && l.endsWith("-bundle.jar")),
          "HBase's client came from the bundle: " + out);
      SnapshotInfo published = copy.currentSnapshot().orElseThrow();
      assertEquals(3, published.rowCount(), "the rows with price > 0: " + published);
      assertEquals(published.id(), copy.snapshotForRun("nightly-42").orElseThrow().id());
    } finally {
      service.stopAndWait();
      zookeeper.stopAndWait();
    }
  }

  private static SnapshotDataset create(SnapshotDatasets datasets, DatasetId id) {
    SnapshotDataset ds = datasets.create(id, DatasetProperties.defaults());
    ds.setSchema(Schema.parse(SCHEMA));
    return ds;
  }

  private static SnapshotInfo write(SnapshotDataset ds, Map<String, Double> rows) {
    RowCodec codec = new RowCodec(ds.schema().orElseThrow(), ds.properties().families().get(0));
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      rows.forEach((sku, price) -> w.put(codec.encode(Map.of("sku", sku, "price", price))));
      return w.commit();
    }
  }

  private static Path bundleJar() throws Exception {
    try (var files = Files.list(Path.of("target"))) {
      return files.filter(f -> f.getFileName().toString().startsWith("snapshot-spark-")
          && f.getFileName().toString().endsWith("-bundle.jar")).findFirst().orElseThrow(
              () -> new IllegalStateException("no snapshot-spark-*-bundle.jar in target/: run the package phase first"))
          .toAbsolutePath();
    }
  }

  /** Runs {@link ReadmeExampleMain} with the bundle and Spark's jars; returns its output's lines. */
  private static List<String> runChild(Path bundle, String port) throws Exception {
    List<String> classPath = new ArrayList<>();
    classPath.add(bundle.toString());
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String path = entry.replace('\\', '/').replaceAll("/+$", "");
      boolean thisTestsClasses = path.endsWith("/snapshot-spark/target/test-classes");
      if ((path.contains("/target/") && !thisTestsClasses) || NOT_SPARKS.stream().anyMatch(path::contains)) {
        continue; // the reactor's own classes and jars, or a jar the bundle holds or replaces
      }
      classPath.add(entry);
    }
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g"));
    command.addAll(Arrays.asList(System.getProperty("snapds.jdk17.flags", "").trim().split("\\s+")));
    command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath), ReadmeExampleMain.class.getName(),
        "localhost", port));
    command.removeIf(String::isEmpty);
    Path log = Files.createTempFile(Path.of("target"), "readme-example-", ".log");
    Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!child.waitFor(10, TimeUnit.MINUTES)) {
      child.destroyForcibly();
      throw new IllegalStateException("the child JVM did not end in 10 minutes; its output: " + log);
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), "the child JVM failed; its output (" + log + "):\n"
        + lines.stream().filter(l -> !l.isBlank()).limit(200).collect(Collectors.joining("\n")));
    return lines.stream().filter(l -> l.startsWith("result: ")).toList();
  }
}
