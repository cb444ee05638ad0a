package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 4: the run-id index is checked in the publish transaction, so one run id
 * publishes once even when its writers hold different locks (two source keys; keyed and
 * unkeyed). The second writer's commit returns the run's snapshot and publishes nothing.
 */
@ExtendWith(MiniClusterExtension.class)
class OneRunIdPublishesOnceAcrossLocksIT {
  private final MiniCluster cluster = MiniCluster.get();

  private static long committedWithRun(SnapshotDataset ds, String run) {
    return ds.snapshots().stream()
        .filter(s -> s.state() == SnapshotState.COMMITTED && s.runId().equals(Optional.of(run))).count();
  }

  @Test
  void twoSourceKeysOneRunId() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("run2keys"), DatasetProperties.defaults());
    SnapshotWriter a = ds.newSnapshot().runId("run-7").sourceKey("a").begin();
    SnapshotWriter b = ds.newSnapshot().runId("run-7").sourceKey("b").begin();
    SnapshotInfo first = writeAndCommit(a, "a", 2);
    SnapshotInfo second = writeAndCommit(b, "b", 2);
    assertEquals(first.id(), second.id(), "the second commit returns the run's snapshot");
    assertEquals(1, committedWithRun(ds, "run-7"));
    assertEquals(first.id(), ds.snapshotForRun("run-7").orElseThrow().id());
    assertEquals(SnapshotState.ABORTED, ds.snapshot(b.snapshotId()).state());
    assertEquals(first.id(), ds.currentSnapshot().orElseThrow().id());
  }

  @Test
  void keyedAndUnkeyedOneRunId() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("runmixed"), DatasetProperties.defaults());
    SnapshotWriter keyed = ds.newSnapshot().runId("run-8").sourceKey("k").begin();
    SnapshotWriter unkeyed = ds.newSnapshot().runId("run-8").begin();
    SnapshotInfo first = writeAndCommit(keyed, "keyed", 2);
    SnapshotInfo second = writeAndCommit(unkeyed, "unkeyed", 2);
    assertEquals(first.id(), second.id());
    assertEquals(1, committedWithRun(ds, "run-8"));
    assertEquals(first.id(), ds.currentSnapshot().orElseThrow().id(), "the unkeyed writer moved nothing");
    assertEquals(SnapshotState.ABORTED, ds.snapshot(unkeyed.snapshotId()).state());
  }
}
