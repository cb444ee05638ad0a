package io.snapds.it;

import static io.snapds.it.Fixtures.key;
import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.testing.FaultyTxClient;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 10: once the publish transaction committed, nothing that fails afterwards
 * (ending the building transaction, taking it off the invalid list, releasing the lease) may
 * keep the writer lock: the caller gets the published snapshot, the lease is released and its
 * heartbeat stopped.
 */
@ExtendWith(MiniClusterExtension.class)
class PublishedWriterReleasesItsLockIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void failuresAfterThePublishCommittedDoNotKeepTheLock() throws Exception {
    LockSettings quick = LockSettings.builder().leaseDuration(Duration.ofSeconds(2))
        .acquireTimeout(Duration.ZERO).retryAttempts(1).build();
    DatasetProperties props = DatasetProperties.builder().lockSettings(quick).build();
    SnapshotDataset created = cluster.datasets().create(MiniCluster.uniqueDataset("post"), props);
    FaultyTxClient faulty = new FaultyTxClient(cluster.txClient());
    SnapshotDataset ds = SnapshotDatasets.using(cluster.connection(), faulty).open(created.id());

    SnapshotWriter w = ds.newSnapshot().begin();
    faulty.failCommitsOf(w.snapshotId().value()); // ending the building transaction fails
    faulty.failTruncates(1);                       // and so does taking it off the invalid list
    SnapshotInfo published = writeAndCommit(w, "p", 20);

    assertEquals(SnapshotState.COMMITTED, published.state());
    assertEquals(published.id(), created.currentSnapshot().orElseThrow().id());
    assertEquals(20, Fixtures.observe(created.readCurrent()).rows());
    assertFalse(created.lockStatus("writer").isHeld(Instant.now()), "the lease was released");
    created.cleanup(); // ends the build transaction the failures left open
    assertFalse(cluster.txService().manager().getCurrentState().getInProgress().containsKey(published.id().value()));
    SnapshotInfo next = writeAndCommit(created.newSnapshot().begin(), "next", 1);
    assertEquals(next.id(), created.currentSnapshot().orElseThrow().id(), "the next writer gets the lock at once");
  }
}
