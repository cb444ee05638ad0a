package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.List;
import org.apache.tephra.TransactionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A pinned reader keeps its snapshot, entirely, until it ends; cleanup waits for it. */
@ExtendWith(MiniClusterExtension.class)
class CleanupIT {
  private final MiniCluster cluster = MiniCluster.get();

  /** Rows physically present in the data table under the snapshot's prefix. */
  static long rawRows(MiniCluster cluster, SnapshotDataset ds, SnapshotId id) {
    return cluster.rawRows(ds.id(), id);
  }


  @Test
  void readerStartedBeforePublishKeepsTheOldSnapshotUntilItEnds() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("pin"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo old = writeAndCommit(ds.newSnapshot().begin(), "old", 200);

    SnapshotDataset reader = cluster.datasets().open(ds.id());
    TransactionContext ctx = new TransactionContext(cluster.txClient(), reader);
    ctx.start();
    assertEquals(old.id(), reader.snapshotId());

    SnapshotInfo fresh = writeAndCommit(ds.newSnapshot().begin(), "new", 50);
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(old.id()).state(), "retention of 1 expired the old one");
    assertEquals(fresh.id(), ds.currentSnapshot().orElseThrow().id());

    CleanupResult whileReading = ds.cleanup();
    assertEquals(List.of(old.id()), whileReading.deferred());
    assertEquals(List.of(), whileReading.cleaned());
    assertEquals(200, rawRows(cluster, ds, old.id()));

    Fixtures.Observation seen = Fixtures.observe(reader);
    assertTrue(seen.matches(old), "the pinned reader sees the whole old snapshot: " + seen);
    assertEquals(old.id(), reader.snapshotId());
    ctx.finish();

    CleanupResult after = ds.cleanup();
    assertEquals(List.of(old.id()), after.cleaned());
    assertEquals(200, after.rowsDeleted());
    assertEquals(0, rawRows(cluster, ds, old.id()));
    assertTrue(ds.snapshot(old.id()).cleanedAt().isPresent());
    assertEquals(50, rawRows(cluster, ds, fresh.id()), "the current snapshot is untouched");
    assertEquals(List.of(), ds.cleanup().cleaned(), "cleanup is idempotent");
  }

  @Test
  void aReaderPinHoldsAnExpiredSnapshotUntilReleased() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("readerpin"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo old = writeAndCommit(ds.newSnapshot().begin(), "old", 20);
    ReaderPin pin = ds.pin(old.id(), "a long job", Duration.ofMinutes(10));
    writeAndCommit(ds.newSnapshot().begin(), "new", 5);
    assertEquals(List.of(old.id()), ds.cleanup().deferred());
    assertEquals(20, rawRows(cluster, ds, old.id()));
    pin.close();
    assertEquals(List.of(old.id()), ds.cleanup().cleaned());
    assertEquals(0, rawRows(cluster, ds, old.id()));
  }
}
