package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 5: history and time travel follow the commit order and the transaction
 * manager's clock, never a writer's: a writer whose clock is five minutes fast changes neither.
 */
@ExtendWith(MiniClusterExtension.class)
class HistoryFollowsTheSharedClockIT {
  @Test
  void aWriterWithAFastClockDoesNotReorderHistoryOrTimeTravel() {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset honest = cluster.datasets().create(MiniCluster.uniqueDataset("skew"), DatasetProperties.defaults());
    SnapshotDataset fast = cluster.datasets().withClock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(5)))
        .open(honest.id());

    SnapshotInfo s1 = writeAndCommit(honest.newSnapshot().begin(), "one", 2);
    SnapshotInfo s2 = writeAndCommit(fast.newSnapshot().begin(), "two", 2);
    assertEquals(s2.id(), honest.readAsOf(Instant.now()).snapshotId(), "as of now is the current snapshot");
    SnapshotInfo s3 = writeAndCommit(honest.newSnapshot().begin(), "three", 2);

    List<HistoryEntry> history = honest.history();
    assertEquals(List.of(s1.id(), s2.id(), s3.id()), history.stream().map(HistoryEntry::snapshot).toList());
    assertEquals(honest.currentSnapshot().orElseThrow().id(), history.get(history.size() - 1).snapshot());
    assertEquals(s3.id(), honest.readAsOf(Instant.now()).snapshotId());
    Instant now = Instant.now();
    for (HistoryEntry h : history) {
      assertFalse(h.at().isAfter(now), "history entry " + h + " is in the future of " + now);
    }
    for (SnapshotId id : List.of(s1.id(), s2.id(), s3.id())) {
      assertFalse(honest.snapshot(id).committedAt().orElseThrow().isAfter(now), "commit time of " + id);
    }
    assertTrue(history.get(1).at().isBefore(history.get(2).at()));
  }
}
