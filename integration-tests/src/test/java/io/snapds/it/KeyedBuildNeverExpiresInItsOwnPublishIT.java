package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SharedBuildResult;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 3: a keyed build that commits behind a newer current snapshot, with
 * retainLast(1), is not expired in its own publish transaction; the state returned is the state
 * stored, and sharedBuild callers get a snapshot they can read.
 */
@ExtendWith(MiniClusterExtension.class)
class KeyedBuildNeverExpiresInItsOwnPublishIT {
  @Test
  void aKeyedBuildBehindTheCurrentSnapshotStaysCommittedAndReadable() {
    SnapshotDataset ds = MiniCluster.get().datasets().create(MiniCluster.uniqueDataset("keyedown"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    writeAndCommit(ds.newSnapshot().begin(), "first", 2);
    SnapshotWriter keyed = ds.newSnapshot().sourceKey("day=1").begin();
    SnapshotInfo newer = writeAndCommit(ds.newSnapshot().begin(), "newer", 2);
    assertTrue(newer.id().isAfter(keyed.snapshotId()));

    SnapshotInfo returned = writeAndCommit(keyed, "keyed", 3);

    assertEquals(SnapshotState.COMMITTED, returned.state());
    assertEquals(returned, ds.snapshot(returned.id()), "the state returned is the state stored");
    assertEquals(newer.id(), ds.currentSnapshot().orElseThrow().id());
    assertTrue(Fixtures.observe(ds.readSnapshot(returned.id())).matches(returned), "its rows are all readable");
    SharedBuildResult again = ds.sharedBuild("day=1", w -> {
      throw new AssertionError("must reuse the committed build");
    });
    assertFalse(again.built());
    assertEquals(returned.id(), again.snapshot().id());
    assertTrue(Fixtures.observe(ds.readSnapshot(again.snapshot().id())).matches(returned));
  }
}
