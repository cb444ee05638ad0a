package io.snapds.it;

import static io.snapds.it.Fixtures.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.DatasetUnavailableException;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 2: HBase's BufferedMutator drops the mutations of a flush that failed. A writer
 * that had a write failure must never publish what is left: it refuses {@code commit()} and only
 * aborts.
 */
@ExtendWith(MiniClusterExtension.class)
class FailedFlushNeverPublishesIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aCommitRetriedAfterAFailedFlushDoesNotPublishAPartialSnapshot() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("flush"), DatasetProperties.builder().build());
    SnapshotWriter w = ds.newSnapshot().begin();
    for (int i = 0; i < 100; i++) {
      w.put(key(i), "d", "v", Bytes.toBytes("v" + i));
    }
    try (Admin admin = cluster.connection().getAdmin()) {
      admin.disableTable(ds.id().dataTable());
      try {
        // HBase reports NotServingRegionException (or TableNotEnabledException) for each buffered
        // mutation, inside a RetriesExhaustedWithDetailsException: docs/design.md "Errors" promises
        // DatasetUnavailableException for a disabled table (issue 36 item 6)
        DatasetUnavailableException e = assertThrows(DatasetUnavailableException.class, w::commit,
            "the flush fails while the data table is disabled");
        assertEquals(ds.id(), e.dataset());
        assertTrue(e.getMessage().contains(ds.id().dataTable().getNameAsString()), e.getMessage());
      } finally {
        admin.enableTable(ds.id().dataTable());
      }
    }
    IllegalStateException again = assertThrows(IllegalStateException.class, w::commit,
        "a writer that lost rows must not publish");
    assertTrue(again.getMessage().contains(w.snapshotId().toString()) && again.getMessage().contains("abort"),
        again.getMessage());
    assertThrows(IllegalStateException.class, () -> w.put(key(0), "d", "v", Bytes.toBytes("x")));
    w.abort();

    assertEquals(Optional.empty(), ds.currentSnapshot(), "nothing was published");
    SnapshotInfo stored = ds.snapshot(w.snapshotId());
    assertEquals(SnapshotState.ABORTED, stored.state());
    assertFalse(ds.lockStatus("writer").isHeld(Instant.now()), "abort released the lock");
  }
}
