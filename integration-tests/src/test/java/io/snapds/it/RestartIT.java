package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.tx.LocalTransactionService;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A restarted transaction manager and a new connection find the same current snapshot and history. */
@ExtendWith(MiniClusterExtension.class)
class RestartIT {
  @Test
  void stateSurvivesARestartOfTheTransactionManagerAndClient() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("restart"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(5)).build());
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().runId("r1").begin(), "a", 7);
    SnapshotInfo s2 = writeAndCommit(ds.newSnapshot().begin(), "b", 9);
    ds.rollbackTo(s1.id()).commit();
    var snapshotsBefore = ds.snapshots();
    var historyBefore = ds.history();

    LocalTransactionService restarted = cluster.restartTransactionManager();
    try (Connection fresh = ConnectionFactory.createConnection(cluster.configuration())) {
      SnapshotDataset reopened = SnapshotDatasets.using(fresh, restarted.client()).open(ds.id());
      assertEquals(s1.id(), reopened.currentSnapshot().orElseThrow().id());
      assertEquals(snapshotsBefore, reopened.snapshots());
      assertEquals(historyBefore, reopened.history());
      assertTrue(Fixtures.observe(reopened.readCurrent()).matches(s1));
      assertEquals(s1.id(), reopened.newSnapshot().runId("r1").begin().alreadyPublished().orElseThrow().id(),
          "the run index survived too");
      SnapshotInfo s3 = writeAndCommit(reopened.newSnapshot().begin(), "c", 2);
      assertTrue(s3.id().isAfter(s2.id()), "write pointers keep growing after the restart");
      assertEquals(s3.id(), reopened.currentSnapshot().orElseThrow().id());
    }
  }
}
