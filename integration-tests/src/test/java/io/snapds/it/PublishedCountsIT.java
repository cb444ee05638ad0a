package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotRowWriter;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 36 item 5: a published record's {@code rowCount} and {@code byteCount} are the rows and
 * bytes a reader of the snapshot gets (key once, then qualifier and value of each cell), whatever
 * the writer did to get there: a key written twice, a cell overwritten, a row deleted, rows
 * written by another row writer. The writer's own counters, which count calls, said otherwise.
 */
@ExtendWith(MiniClusterExtension.class)
class PublishedCountsIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aKeyWrittenTwiceAnOverwrittenCellAndADeleteAreCountedAsStored() {
    SnapshotDataset ds = create("dupkeys");
    SnapshotInfo published;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(b("a"), "d", "v", b("first"));
      w.put(b("b"), "d", "v", b("bee"));
      w.put(b("a"), "d", "v", b("second")); // the same key again, not consecutively
      w.put(b("c"), "d", "v", b("x"));
      w.put(b("c"), "d", "v", b("longer value")); // the same cell twice in one row
      w.put(b("d"), "d", "v", b("dee"));
      w.delete(b("b"));
      published = w.commit();
    }
    List<SnapshotRow> read = rows(ds);
    assertEquals(List.of("a", "c", "d"), read.stream().map(r -> Bytes.toString(r.key())).toList());
    assertEquals(read.size(), published.rowCount(), "the record counts the rows a reader gets");
    assertEquals(storedBytes(read), published.byteCount(), "and the bytes");
  }

  @Test
  void rowsInAscendingOrderAreCountedByTheWriterAsStored() {
    SnapshotDataset ds = create("ascending");
    SnapshotInfo published;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (int i = 0; i < 50; i++) {
        w.put(Fixtures.key(i), "d", "a", b("v" + i));
        w.put(Fixtures.key(i), "d", "b", b("w" + i));
        w.put(Fixtures.key(i), "e", "a", b("x"));
      }
      published = w.commit();
    }
    List<SnapshotRow> read = rows(ds);
    assertEquals(50, read.size());
    assertEquals(read.size(), published.rowCount());
    assertEquals(storedBytes(read), published.byteCount());
  }

  /** A row writer beside the snapshot's writer (as a task writes) is counted, duplicates once. */
  @Test
  void rowsOfAnotherRowWriterAreCountedOnceAsStored() {
    SnapshotDataset ds = create("beside");
    SnapshotInfo published;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(b("a"), "d", "v", b("mine"));
      w.put(b("b"), "d", "v", b("mine too"));
      try (SnapshotRowWriter side = ds.openRowWriter(w.snapshotId(), 1024)) {
        side.put(b("b"), "d", b("v"), b("theirs")); // a key the writer wrote too
        side.put(b("c"), "d", b("v"), b("theirs"));
      }
      published = w.countStoredRows().commit();
    }
    List<SnapshotRow> read = rows(ds);
    assertEquals(3, read.size());
    assertEquals(read.size(), published.rowCount());
    assertEquals(storedBytes(read), published.byteCount());
  }

  /** The counting scan runs per region, several at once: a snapshot over three regions is counted whole. */
  @Test
  void aSnapshotOverSeveralRegionsIsCountedWhole() throws Exception {
    SnapshotDataset ds = create("regions");
    SnapshotInfo published;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      splitAt(ds, w.snapshotKeys().rowKey(Fixtures.key(100)));
      splitAt(ds, w.snapshotKeys().rowKey(Fixtures.key(200)));
      for (int pass = 0; pass < 2; pass++) { // every key twice: the writer's counters say 600
        for (int i = 0; i < 300; i++) {
          w.put(Fixtures.key(i), "d", "v", b("pass " + pass + " row " + i));
        }
      }
      published = w.commit();
    }
    List<SnapshotRow> read = rows(ds);
    assertEquals(300, read.size());
    assertEquals(read.size(), published.rowCount());
    assertEquals(storedBytes(read), published.byteCount());
  }

  private void splitAt(SnapshotDataset ds, byte[] point) throws Exception {
    TableName table = ds.id().dataTable();
    try (Admin admin = cluster.connection().getAdmin();
        RegionLocator locator = cluster.connection().getRegionLocator(table)) {
      int before = locator.getAllRegionLocations().size();
      admin.splitRegionAsync(locator.getRegionLocation(point, true).getRegion().getRegionName(), point)
          .get(2, TimeUnit.MINUTES);
      assertEquals(before + 1, locator.getAllRegionLocations().size());
    }
  }

  /** Key once, then qualifier and value of each cell. */
  static long storedBytes(List<SnapshotRow> rows) {
    long bytes = 0;
    for (SnapshotRow r : rows) {
      bytes += r.key().length;
      for (var cells : r.families().values()) {
        for (var cell : cells.entrySet()) {
          bytes += cell.getKey().length + cell.getValue().length;
        }
      }
    }
    return bytes;
  }

  private SnapshotDataset create(String prefix) {
    return cluster.datasets().create(MiniCluster.uniqueDataset(prefix),
        DatasetProperties.builder().families("d", "e").build());
  }

  private static List<SnapshotRow> rows(SnapshotDataset ds) {
    List<SnapshotRow> out = new ArrayList<>();
    try (RowScanner rows = ds.readCurrent().scan(RowScan.all())) {
      rows.forEach(out::add);
    }
    return out;
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }
}
