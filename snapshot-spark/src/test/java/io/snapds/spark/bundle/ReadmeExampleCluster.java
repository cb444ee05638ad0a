package io.snapds.spark.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Scopes;
import com.google.inject.util.Modules;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.tx.TephraServiceClientFactory;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

/**
 * What the README's Spark example ({@link ReadmeExampleMain}) runs against, as on a cluster: this
 * JVM's mini cluster, a Tephra transaction service announced in its ZooKeeper (the default client
 * factory finds it there), dataset {@code shop:prices} with a snapshot tagged {@code release}
 * (three rows) and a current one (four rows), and an empty {@code shop:prices_copy} for the
 * example's write. {@link #assertExampleRan} checks what the example printed and published against
 * what the Java API reads.
 * One per test JVM: the dataset names are the README's.
 */
final class ReadmeExampleCluster implements AutoCloseable {
  private static final String SCHEMA = "sku string key, price double";

  private final String zookeeperPort;
  private final ZKClientService zookeeper;
  private final TransactionService service;
  private final TephraServiceClientFactory clients;
  private final SnapshotDataset prices;
  private final SnapshotId release;
  private final SnapshotDataset copy;

  private ReadmeExampleCluster(String zookeeperPort, ZKClientService zookeeper, TransactionService service,
      TephraServiceClientFactory clients, SnapshotDataset prices, SnapshotId release, SnapshotDataset copy) {
    this.zookeeperPort = zookeeperPort;
    this.zookeeper = zookeeper;
    this.service = service;
    this.clients = clients;
    this.prices = prices;
    this.release = release;
    this.copy = copy;
  }

  static ReadmeExampleCluster start() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    Configuration conf = new Configuration(cluster.configuration());
    String port = conf.get("hbase.zookeeper.property.clientPort");
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, "localhost:" + port);
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
    TephraServiceClientFactory clients = new TephraServiceClientFactory();
    try {
      SnapshotDatasets datasets = SnapshotDatasets.using(cluster.connection(), clients.create(conf));
      SnapshotDataset prices = create(datasets, DatasetId.of("shop", "prices"));
      SnapshotDataset copy = create(datasets, DatasetId.of("shop", "prices_copy"));
      SnapshotInfo release = write(prices, Map.of("A-17", 3.5, "B-2", 0.0, "C-9", 1.25));
      prices.manageTags(release.id()).tag("release").commit();
      write(prices, Map.of("A-17", 4.0, "B-2", 0.0, "C-9", 1.25, "D-1", 7.0));
      return new ReadmeExampleCluster(port, zookeeper, service, clients, prices, release.id(), copy);
    } catch (Exception | Error e) {
      clients.close();
      service.stopAndWait();
      zookeeper.stopAndWait();
      throw e;
    }
  }

  /** The ZooKeeper client port of HBase and of the transaction service (on localhost). */
  String zookeeperPort() {
    return zookeeperPort;
  }

  /**
   * The example's reads as it printed them ({@code result:} lines) and its write as stored, each
   * against what the Java API reads: the current snapshot's A-17 row, the tagged snapshot's row
   * count, and {@code shop:prices_copy} published once, under run id {@code nightly-42}, holding the
   * current snapshot's rows priced above zero, its row count the rows a reader gets.
   */
  void assertExampleRan(List<String> results) {
    Map<String, Double> current = rows(prices, prices.currentSnapshot().orElseThrow().id());
    assertEquals(Map.of("A-17", 4.0, "B-2", 0.0, "C-9", 1.25, "D-1", 7.0), current, "the current snapshot as set up");
    assertTrue(results.contains("result: A-17 [[A-17," + current.get("A-17") + "]]"),
        "the current snapshot's A-17, as the Java API reads it (" + current.get("A-17") + "): " + results);
    int atRelease = rows(prices, release).size();
    assertEquals(3, atRelease, "the tagged snapshot as set up");
    assertTrue(results.contains("result: release count " + atRelease),
        "the tagged snapshot's count, " + atRelease + " rows through the Java API: " + results);

    List<SnapshotInfo> written = copy.snapshots();
    assertEquals(1, written.size(), "one snapshot of the copy, the example's write: " + written);
    SnapshotInfo published = copy.currentSnapshot().orElseThrow();
    assertEquals(written.get(0).id(), published.id(), "the write's snapshot is the current one: " + written);
    assertEquals(published.id(), copy.snapshotForRun("nightly-42").orElseThrow().id(), "the run id's snapshot");
    Map<String, Double> expected = new TreeMap<>(current);
    expected.values().removeIf(price -> !(price > 0));
    Map<String, Double> copied = rows(copy, published.id());
    assertEquals(expected, copied, "the copy holds the rows priced above zero");
    assertEquals(copied.size(), published.rowCount(), "the published row count is the rows a reader gets: " + published);
  }

  /** The rows of {@code snapshot} through the Java API: sku to price. */
  private static Map<String, Double> rows(SnapshotDataset ds, SnapshotId snapshot) {
    RowCodec codec = new RowCodec(ds.schema(snapshot).orElseThrow(), ds.properties().families().get(0));
    Map<String, Double> out = new TreeMap<>();
    try (RowScanner scanner = ds.readSnapshot(snapshot).scan(RowScan.all())) {
      for (SnapshotRow row : scanner) {
        SchemaRecord record = codec.decode(row);
        out.put((String) record.get("sku"), (Double) record.get("price"));
      }
    }
    return out;
  }

  @Override
  public void close() {
    try {
      clients.close();
    } finally {
      try {
        service.stopAndWait();
      } finally {
        zookeeper.stopAndWait();
      }
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
}
