package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.TransactionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MiniClusterExtension.class)
class SnapshotLifecycleIT {
  private final MiniCluster cluster = MiniCluster.get();

  static SnapshotInfo publish(SnapshotDataset ds, String prefix, int rows) {
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (int i = 0; i < rows; i++) {
        w.put(Bytes.toBytes(String.format("k%05d", i)), "d", "v", Bytes.toBytes(prefix + i));
      }
      return w.commit();
    }
  }

  static List<String> values(SnapshotDataset ds) {
    List<String> out = new ArrayList<>();
    try (RowScanner rows = ds.scan(RowScan.all())) {
      for (SnapshotRow r : rows) {
        out.add(Bytes.toString(r.value("d", "v")));
      }
    }
    return out;
  }

  @Test
  void publishedSnapshotBecomesCurrentAndPinnedReadersKeepTheirs() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("life");
    SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
    SnapshotInfo first = publish(ds, "a", 10);
    assertEquals(SnapshotState.COMMITTED, first.state());
    assertEquals(10, first.rowCount());
    assertEquals(first.id(), ds.currentSnapshot().orElseThrow().id());

    SnapshotDataset reader = cluster.datasets().open(id);
    TransactionContext ctx = new TransactionContext(cluster.txClient(), reader);
    ctx.start();
    assertEquals(first.id(), reader.snapshotId());

    SnapshotInfo second = publish(ds, "b", 5);
    assertTrue(second.id().isAfter(first.id()));
    assertEquals(second.id(), ds.currentSnapshot().orElseThrow().id());

    List<String> seen = values(reader);
    assertEquals(10, seen.size());
    assertTrue(seen.stream().allMatch(v -> v.startsWith("a")), seen.toString());
    ctx.finish();

    ctx.start();
    assertEquals(second.id(), reader.snapshotId());
    assertEquals(5, values(reader).size());
    ctx.finish();
  }

  @Test
  void abortLeavesCurrentUntouched() {
    DatasetId id = MiniCluster.uniqueDataset("abort");
    SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
    SnapshotInfo first = publish(ds, "a", 3);
    SnapshotWriter w = ds.newSnapshot().begin();
    w.put(Bytes.toBytes("x"), "d", "v", Bytes.toBytes("nope"));
    w.abort();
    assertEquals(first.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(SnapshotState.ABORTED, ds.snapshot(w.snapshotId()).state());
    assertThrows(SnapshotNotAvailableException.class, () -> ds.readSnapshot(w.snapshotId()));
    assertFalse(ds.readCurrent().get(Bytes.toBytes("x")).isPresent());
    // the abort deleted nothing: its rows wait for cleanup, which needs no reader to finish
    assertEquals(1, cluster.rawRows(id, w.snapshotId()));
    assertTrue(ds.snapshot(w.snapshotId()).cleanupFence() > 0, "aborted with a cleanup fence");
    assertTrue(ds.cleanup().cleaned().contains(w.snapshotId()));
    assertEquals(0, cluster.rawRows(id, w.snapshotId()));
    assertTrue(ds.snapshot(w.snapshotId()).cleanedAt().isPresent());
  }
}
