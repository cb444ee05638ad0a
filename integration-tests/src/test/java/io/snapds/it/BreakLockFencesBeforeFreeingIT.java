package io.snapds.it;

import static io.snapds.it.Fixtures.key;
import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CommitConflictException;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.FencedWriterException;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.testing.FaultyTxClient;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Instant;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 6: breaking a lock raises the fence before it frees the lease (so the revoked
 * holder can never publish in between, and a break whose fence could not be raised frees
 * nothing), and in the same step aborts the holder's BUILDING snapshot and ends its building
 * transaction.
 */
@ExtendWith(MiniClusterExtension.class)
class BreakLockFencesBeforeFreeingIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void breakingAbortsTheHoldersSnapshotAndEndsItsBuildTransaction() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("brk"), DatasetProperties.builder().build());
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 3);
    SnapshotWriter holder = ds.newSnapshot().owner("stuck-job").begin();
    holder.put(key(1), "d", "v", Bytes.toBytes("late"));
    holder.flush();

    LockLease revoked = ds.breakLock("writer").orElseThrow();
    assertEquals("stuck-job", revoked.owner());
    assertFalse(ds.lockStatus("writer").isHeld(Instant.now()));
    assertEquals(SnapshotState.ABORTED, ds.snapshot(holder.snapshotId()).state(),
        "the revoked holder's snapshot is aborted by the break itself");
    assertTrue(ds.snapshot(holder.snapshotId()).cleanupFence() > 0, "and can be cleaned at once");
    assertFalse(cluster.txService().manager().getCurrentState().getInProgress()
        .containsKey(holder.snapshotId().value()), "its building transaction no longer runs");

    assertThrows(FencedWriterException.class, holder::commit);
    assertEquals(before.id(), ds.currentSnapshot().orElseThrow().id());
  }

  @Test
  void aBreakWhoseFenceCannotBeRaisedLeavesTheLeaseWithItsHolder() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("brkfail"), DatasetProperties.builder().build());
    SnapshotWriter holder = ds.newSnapshot().owner("job-a").begin();
    holder.put(key(1), "d", "v", Bytes.toBytes("a"));

    FaultyTxClient faulty = new FaultyTxClient(cluster.txClient());
    SnapshotDataset admin = SnapshotDatasets.using(cluster.connection(), faulty).open(ds.id());
    faulty.failConflictChecks(1_000);
    assertThrows(CommitConflictException.class, () -> admin.breakLock("writer"));
    faulty.failConflictChecks(0);

    assertTrue(ds.lockStatus("writer").isHeld(Instant.now()),
        "the fence was not raised, so the lease must not have been freed either");
    assertEquals("job-a", ds.lockStatus("writer").lease().orElseThrow().owner());
    SnapshotInfo published = holder.commit();
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id(), "the holder was never revoked");
  }
}
