package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.tx.TephraServiceClientFactory;
import io.snapds.dataset.tx.TransactionClientFactory;
import java.net.ServerSocket;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TxConstants;
import org.apache.tephra.distributed.TransactionService;
import org.apache.tephra.runtime.ConfigModule;
import org.apache.tephra.runtime.DiscoveryModules;
import org.apache.tephra.runtime.TransactionClientModule;
import org.apache.tephra.runtime.TransactionModules;
import org.apache.tephra.runtime.ZKModule;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The deployment's path: Hive with no {@code snapds.tx.client.factory} set, so the handler uses the
 * default {@link TephraServiceClientFactory}, next to hive-exec 4.1's libthrift 0.16, and reaches a
 * real Tephra transaction service (thrift, announced in the mini cluster's ZooKeeper). Tephra's
 * thrift client loads because snapshot-hive depends on snapshot-tephra-relocated (Tephra's classes
 * on their own, relocated, libthrift 0.9.3) instead of tephra-core-shaded.
 */
@ExtendWith(MiniClusterExtension.class)
class TephraServiceHiveTest {
  private final MiniCluster cluster = MiniCluster.get();
  private final EmbeddedHive hive = EmbeddedHive.get();

  @Test
  void aQueryReadsAndAnInsertPublishesThroughTheDefaultTephraClient() throws Exception {
    // the setting: Hive's thrift is 0.16, in which Tephra 0.16.1's unrelocated client cannot load
    Class.forName("org.apache.thrift.transport.layered.TFramedTransport");
    assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.thrift.transport.TFramedTransport"));

    Configuration conf = new Configuration(cluster.configuration());
    String quorum = "localhost:" + conf.get("hbase.zookeeper.property.clientPort");
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, quorum);
    conf.set(TxConstants.Service.CFG_DATA_TX_BIND_ADDRESS, "127.0.0.1");
    try (ServerSocket free = new ServerSocket(0)) {
      conf.setInt(TxConstants.Service.CFG_DATA_TX_BIND_PORT, free.getLocalPort());
    }
    conf.setBoolean(TxConstants.Manager.CFG_DO_PERSIST, false);
    Injector injector = Guice.createInjector(new ConfigModule(conf), new ZKModule(),
        new DiscoveryModules().getDistributedModules(), new TransactionModules().getDistributedModules(),
        new TransactionClientModule());
    ZKClientService zookeeper = injector.getInstance(ZKClientService.class);
    zookeeper.startAndWait();
    TransactionService service = injector.getInstance(TransactionService.class);
    service.startAndWait();
    String factoryBefore = hive.conf().get(TransactionClientFactory.CLASS_SETTING);
    try (TephraServiceClientFactory factory = new TephraServiceClientFactory()) {
      SnapshotDatasets datasets = SnapshotDatasets.using(cluster.connection(), factory.create(conf));
      // as a deployment's hive-site.xml: Tephra's ZooKeeper, no client factory (the default)
      hive.set(TransactionClientFactory.CLASS_SETTING, null);
      hive.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, quorum);
      long testManagerPointer = cluster.txService().manager().getCurrentState().getWritePointer();

      Prices source = Prices.create(hive, datasets, "txsrc");
      SnapshotId sourceSnapshot = source.publish(1, 12).id();
      Prices target = Prices.create(hive, datasets, "txdst");
      SnapshotId old = target.publish(2, 3).id();
      List<String> sourceRows = source.rows(sourceSnapshot, RowScan.all());
      assertEquals(12, sourceRows.size());

      assertEquals(sourceRows, hive.sql("SELECT * FROM " + source.table), "the fetch task reads the snapshot");
      assertEquals(List.of("12"), hive.sql("SELECT count(*) FROM " + source.table), "and a MapReduce task");
      hive.sql("INSERT OVERWRITE TABLE " + target.table + " SELECT * FROM " + source.table);

      SnapshotInfo published = target.dataset.currentSnapshot().orElseThrow();
      assertTrue(published.id().isAfter(old), "the insert published a new snapshot: " + target.dataset.snapshots());
      assertEquals(SnapshotState.COMMITTED, published.state());
      assertEquals(12, published.rowCount());
      assertEquals(sourceRows, target.rows(published.id(), RowScan.all()), "the snapshot holds the query's rows");
      assertEquals(sourceRows, hive.sql("SELECT * FROM " + target.table), "and Hive reads them back");
      assertEquals(3, target.rows(old, RowScan.all()).size(), "the previous snapshot is untouched");
      // the only other transaction manager in this JVM, the tests' (hive-site.xml's factory): had
      // Hive used it, its write pointer would have moved
      assertEquals(testManagerPointer, cluster.txService().manager().getCurrentState().getWritePointer(),
          "the test JVM's own transaction manager handed out nothing: every transaction was the service's");
    } finally {
      hive.set(TransactionClientFactory.CLASS_SETTING, factoryBefore);
      hive.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, null);
      service.stopAndWait();
      zookeeper.stopAndWait();
    }
  }
}
