package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 11: a lock table that was restored from an old backup or truncated restarts its
 * tokens below the fences kept in the metadata. The next grant must still be above every fence,
 * so the dataset stays writable.
 */
@ExtendWith(MiniClusterExtension.class)
class TruncatedLockTableStaysWritableIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aWriterBeginsAndPublishesAfterTheLockTableWasTruncated() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("trunc"), DatasetProperties.builder().build());
    writeAndCommit(ds.newSnapshot().begin(), "a", 3);
    writeAndCommit(ds.newSnapshot().begin(), "b", 3);
    writeAndCommit(ds.newSnapshot().begin(), "c", 3);
    try (Admin admin = cluster.connection().getAdmin()) {
      admin.disableTable(ds.id().lockTable());
      admin.truncateTable(ds.id().lockTable(), false);
    }
    assertEquals(0, ds.lockStatus("writer").lastToken(), "the lock table forgot every token");

    SnapshotInfo after = writeAndCommit(ds.newSnapshot().begin(), "after", 5);
    assertEquals(after.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(4, after.fencingToken(), "granted above the recorded fence (3)");
    assertTrue(ds.lockStatus("writer").lastToken() >= 4);
    assertEquals(5, Fixtures.observe(ds.readCurrent()).rows());
  }
}
