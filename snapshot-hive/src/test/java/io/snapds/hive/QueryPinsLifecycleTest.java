package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import java.time.Clock;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.conf.HiveConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 13, Hive's side: a query's pin is renewed while the query runs (so a query
 * longer than the pin's time-to-live keeps its snapshot) and released when it ends; a later
 * stage refuses a pinned snapshot that was cleaned meanwhile.
 */
@ExtendWith(MiniClusterExtension.class)
class QueryPinsLifecycleTest {
  private final MiniCluster cluster = MiniCluster.get();

  private Configuration queryConf(String queryId) {
    Configuration conf = new Configuration(cluster.configuration());
    conf.set(JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
    conf.set(HiveConf.ConfVars.HIVE_QUERY_ID.varname, queryId);
    conf.setLong(HiveTableProperties.PIN_TTL_SECONDS, 1);
    return conf;
  }

  private SnapshotDataset create(String name) {
    return cluster.datasets().create(MiniCluster.uniqueDataset(name),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
  }

  private static SnapshotInfo publish(SnapshotDataset ds, int rows) {
    var w = ds.newSnapshot().begin();
    for (int i = 0; i < rows; i++) {
      w.put(Bytes.toBytes("k" + i), "d", "v", Bytes.toBytes(i));
    }
    return w.commit();
  }

  private int livePins(SnapshotDataset ds, SnapshotId s) {
    return new LockTable(cluster.connection(), ds.id().lockTable(), Clock.systemUTC()).livePins(s);
  }

  @Test
  void aQueryPinIsRenewedWhileTheQueryRunsAndReleasedWhenItEnds() throws Exception {
    SnapshotDataset ds = create("renew");
    SnapshotInfo s1 = publish(ds, 3);
    SnapshotId pinned = QueryPins.resolve(queryConf("q-renew"), ds.id(), SnapshotSelector.current());
    assertEquals(s1.id(), pinned);
    publish(ds, 2); // s1 expires
    Thread.sleep(2_500); // more than twice the pin's one-second time-to-live
    assertEquals(1, livePins(ds, s1.id()), "the running query's pin was renewed");
    assertEquals(List.of(), ds.cleanup().cleaned(), "so cleanup keeps the query's snapshot");

    QueryPins.release("q-renew");
    assertEquals(0, livePins(ds, s1.id()), "released when the query ended");
    assertEquals(List.of(s1.id()), ds.cleanup().cleaned());
  }

  @Test
  void aPinnedSnapshotThatWasCleanedIsRefused() throws Exception {
    SnapshotDataset ds = create("cleaned");
    SnapshotInfo s1 = publish(ds, 3);
    Configuration conf = queryConf("q-cleaned");
    QueryPins.resolve(conf, ds.id(), SnapshotSelector.current());
    publish(ds, 2);
    QueryPins.release("q-cleaned"); // as if the pin had lapsed
    assertEquals(List.of(s1.id()), ds.cleanup().cleaned());
    SnapshotNotAvailableException e = assertThrows(SnapshotNotAvailableException.class,
        () -> QueryPins.pinned(conf, ds.id(), s1.id()));
    assertTrue(e.getMessage().contains(s1.id().toString()) && e.getMessage().contains("cleaned"), e.getMessage());
  }
}
