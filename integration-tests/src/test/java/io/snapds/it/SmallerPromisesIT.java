package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.testing.FaultyTxClient;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 14 (the parts about timeouts, durations and lock names): each bad value gets a
 * clear error naming it before anything is stored, and a metadata transaction that timed out is
 * known not to have committed.
 */
@ExtendWith(MiniClusterExtension.class)
class SmallerPromisesIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aMetadataTransactionThatTimedOutIsRetriedNotReportedUnknown() {
    SnapshotDataset created = cluster.datasets().create(MiniCluster.uniqueDataset("timedout"),
        DatasetProperties.builder().build());
    SnapshotInfo s = writeAndCommit(created.newSnapshot().begin(), "s", 2);
    FaultyTxClient faulty = new FaultyTxClient(cluster.txClient());
    SnapshotDataset ds = SnapshotDatasets.using(cluster.connection(), faulty).open(created.id());
    faulty.timeOutCommits(1); // Tephra refuses the commit: the transaction timed out
    SnapshotInfo tagged = ds.manageTags(s.id()).tag("gold").commit();
    assertEquals(Set.of("gold"), tagged.tags());
    assertEquals(Set.of("gold"), created.snapshot(s.id()).tags(), "stored once, by the retry");
    assertEquals(s.id(), created.readTag("gold").snapshotId());
  }

  @Test
  void aMaxBuildTimeAboveTheTransactionServiceLimitIsRefusedAtCreate() {
    DatasetId id = MiniCluster.uniqueDataset("buildtime");
    Duration eightDays = Duration.ofDays(8); // the test manager's data.tx.max.timeout is one week
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> cluster.datasets().create(id, DatasetProperties.builder().maxBuildTime(eightDays).build()));
    assertTrue(e.getMessage().contains("PT192H") && e.getMessage().contains("604800"),
        "names the value and the limit: " + e.getMessage());
    assertFalse(cluster.datasets().exists(id), "nothing was created");
  }

  @Test
  void hugeDurationsAreRefusedNamingTheValue() {
    Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
    IllegalArgumentException lease = assertThrows(IllegalArgumentException.class,
        () -> LockSettings.builder().leaseDuration(huge).build());
    assertTrue(lease.getMessage().startsWith("lease duration must be at most") && lease.getMessage().contains(huge.toString()),
        lease.getMessage());
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("huge"), DatasetProperties.builder().build());
    SnapshotInfo s = writeAndCommit(ds.newSnapshot().begin(), "s", 1);
    IllegalArgumentException pin = assertThrows(IllegalArgumentException.class, () -> ds.pin(s.id(), "job", huge));
    assertTrue(pin.getMessage().contains("pin time-to-live") && pin.getMessage().contains(huge.toString()),
        pin.getMessage());
  }

  @Test
  void aSourceKeyWithNulIsRefusedSoLocksCannotShareWaiterRows() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("nul"), DatasetProperties.builder().build());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ds.newSnapshot().sourceKey("day\u0000x"));
    assertTrue(e.getMessage().contains("NUL") && e.getMessage().contains("day\\0x"), e.getMessage());
    assertEquals(0, ds.snapshots().size(), "nothing was begun");
  }
}
