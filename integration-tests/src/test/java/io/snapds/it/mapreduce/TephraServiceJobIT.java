package io.snapds.it.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.mapreduce.SnapshotMapReduceUtil;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.tx.TephraServiceClientFactory;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.Job;
import org.apache.tephra.TransactionSystemClient;
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
 * The production path: a Tephra transaction service (thrift, announced in the mini cluster's
 * ZooKeeper) and a job whose processes find it with the default {@link TephraServiceClientFactory},
 * no test factory configured.
 */
@ExtendWith(MiniClusterExtension.class)
class TephraServiceJobIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void copyJobWorksThroughTheDistributedTransactionService() throws Exception {
    Configuration conf = new Configuration(cluster.configuration());
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM,
        "localhost:" + conf.get("hbase.zookeeper.property.clientPort"));
    conf.set(TxConstants.Service.CFG_DATA_TX_BIND_ADDRESS, "127.0.0.1");
    try (ServerSocket free = new ServerSocket(0)) {
      conf.setInt(TxConstants.Service.CFG_DATA_TX_BIND_PORT, free.getLocalPort());
    }
    conf.setBoolean(TxConstants.Manager.CFG_DO_PERSIST, false);
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.client.completion.pollinterval", 50);

    Injector injector = Guice.createInjector(new ConfigModule(conf), new ZKModule(),
        new DiscoveryModules().getDistributedModules(), new TransactionModules().getDistributedModules(),
        new TransactionClientModule());
    ZKClientService zookeeper = injector.getInstance(ZKClientService.class);
    zookeeper.startAndWait();
    TransactionService service = injector.getInstance(TransactionService.class);
    service.startAndWait();
    try (TephraServiceClientFactory factory = new TephraServiceClientFactory()) {
      TransactionSystemClient txClient = factory.create(conf);
      SnapshotDatasets datasets = SnapshotDatasets.using(cluster.connection(), txClient);
      SnapshotDataset a = datasets.create(MiniCluster.uniqueDataset("tephraA"), DatasetProperties.defaults());
      SnapshotDataset b = datasets.create(MiniCluster.uniqueDataset("tephraB"), DatasetProperties.defaults());
      SnapshotInfo source;
      try (SnapshotWriter w = a.newSnapshot().begin()) {
        for (int i = 0; i < 25; i++) {
          w.put(Bytes.toBytes("k" + i), "d", "v", Bytes.toBytes(i));
        }
        source = w.commit();
      }

      Job job = Job.getInstance(conf, "copy through the transaction service");
      assertEquals(null, job.getConfiguration().get(JobDatasets.TX_CLIENT_FACTORY), "the default factory is used");
      SnapshotMapReduceUtil.initSnapshotCopyJob(a.id(), SnapshotSelector.current(), b.id(), null, job, false);
      assertTrue(SnapshotMapReduceUtil.runJob(job, false));

      assertEquals(25, b.currentSnapshot().orElseThrow().rowCount());
      assertEquals(rows(a, source), rows(b, b.currentSnapshot().orElseThrow()));
    } finally {
      service.stopAndWait();
      zookeeper.stopAndWait();
    }
  }

  private static List<SnapshotRow> rows(SnapshotDataset ds, SnapshotInfo snapshot) {
    List<SnapshotRow> out = new ArrayList<>();
    try (RowScanner rows = ds.readSnapshot(snapshot.id()).scan(RowScan.all())) {
      rows.forEach(out::add);
    }
    return out;
  }
}
