package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bugs the protocol simulation found (snapshot-dataset's {@code ProtocolSimulationTest}, see
 * docs/design.md "How the protocol is checked"), each again on the real mini cluster, through the
 * public API. Each test names the seed that found it.
 */
@ExtendWith(MiniClusterExtension.class)
class SimulationFindingsIT {
  private final MiniCluster cluster = MiniCluster.get();

  /**
   * Seeds 1-10 of the first run: a writer that flushed right after a row's last cell and then
   * wrote to the same row again failed with a NullPointerException (the row writer took the new
   * cell for the row it had just sent).
   */
  @Test
  void aRowWrittenAgainAfterAFlushKeepsEveryCell() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("flushsame"),
        DatasetProperties.builder().build());
    SnapshotInfo s;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(Bytes.toBytes("a"), "d", "x", Bytes.toBytes("1"));
      w.flush();
      w.put(Bytes.toBytes("a"), "d", "y", Bytes.toBytes("2"));
      s = w.commit();
    }
    Map<String, String> cells = new TreeMap<>();
    try (RowScanner rows = ds.readSnapshot(s.id()).scan(RowScan.all())) {
      for (SnapshotRow row : rows) {
        row.families().get(Bytes.toBytes("d")).forEach((q, v) ->
            cells.put(Bytes.toString(row.key()) + "/" + Bytes.toString(q), Bytes.toString(v)));
      }
    }
    assertEquals(Map.of("a/x", "1", "a/y", "2"), cells);
  }
}
