package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** Gets, multi-gets, scans with ranges, prefixes and projections, on binary keys and values. */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadApiIT {
  private static final byte[][] KEYS = {
      {0x00}, {0x00, 0x00}, {0x00, (byte) 0xFF}, {0x01}, {'a'}, {'a', 0x00}, {'a', 'b'}, {'b'},
      {(byte) 0xFF}, {(byte) 0xFF, (byte) 0xFF}};
  private SnapshotDataset ds;
  private SnapshotInfo snapshot;

  @BeforeAll
  void write() {
    DatasetId id = MiniCluster.uniqueDataset("read");
    ds = MiniCluster.get().datasets().create(id, DatasetProperties.builder().families("d", "x").build());
    try (SnapshotWriter w = ds.newSnapshot().runId("read-1").owner("tester").begin()) {
      for (int i = 0; i < KEYS.length; i++) {
        w.put(KEYS[i], "d", new byte[] {1, 0, 2}, new byte[] {(byte) i, 0, (byte) 0xFF});
        w.put(KEYS[i], "d", "n", Bytes.toBytes(i));
        w.put(KEYS[i], "x", "extra", Bytes.toBytes("x" + i));
      }
      w.put(Bytes.toBytes("gone"), "d", "n", Bytes.toBytes(-1));
      w.delete(Bytes.toBytes("gone"));
      w.put(Bytes.toBytes("back"), "d", "n", Bytes.toBytes(-1));
      w.delete(Bytes.toBytes("back"));
      w.put(Bytes.toBytes("back"), "d", "n", Bytes.toBytes(99));
      snapshot = w.commit();
    }
  }

  private static List<byte[]> keys(RowScanner scanner) {
    List<byte[]> out = new ArrayList<>();
    try (scanner) {
      for (SnapshotRow r : scanner) {
        out.add(r.key());
      }
    }
    return out;
  }

  /** Typed rows of two schemas, each snapshot read with its own, with a typed key range (#15). */
  @Test
  void typedRowsReadWithEachSnapshotsSchema() {
    SnapshotDataset typed = MiniCluster.get().datasets().create(MiniCluster.uniqueDataset("typed"),
        DatasetProperties.builder().families("d").build());
    assertEquals(Optional.empty(), typed.schema());
    assertEquals(1, typed.setSchema(io.snapds.dataset.schema.Schema.parse("id long key, n int")));
    io.snapds.dataset.schema.RowCodec v1 = new io.snapds.dataset.schema.RowCodec(typed.schema().orElseThrow(), "d");
    SnapshotInfo s1 = writeTyped(typed, v1, List.of(-5L, -1L, 0L, 3L, Long.MAX_VALUE));
    assertEquals(2, typed.updateSchema(u -> u.widenField("n", io.snapds.dataset.schema.Type.LONG)
        .addField("note", io.snapds.dataset.schema.Type.STRING)));
    io.snapds.dataset.schema.RowCodec v2 = new io.snapds.dataset.schema.RowCodec(typed.schema().orElseThrow(), "d");
    writeTyped(typed, v2, List.of(Long.MIN_VALUE, 7L));

    assertEquals(Optional.of(1), typed.snapshot(s1.id()).schemaId());
    io.snapds.dataset.schema.Schema own = typed.schema(s1.id()).orElseThrow();
    io.snapds.dataset.schema.RowCodec old = new io.snapds.dataset.schema.RowCodec(own, "d");
    List<Long> ids = new ArrayList<>();
    // ids in [-1, 3): the typed key range is a byte range
    SnapshotReader r1 = typed.readSnapshot(s1.id());
    try (RowScanner scan = r1.scan(RowScan.all().range(old.rowKey(List.of(-1L)), old.rowKey(List.of(3L))))) {
      for (SnapshotRow row : scan) {
        io.snapds.dataset.schema.SchemaRecord rec = old.decode(row);
        assertEquals(Integer.valueOf((int) (long) rec.getLong("id")), rec.getInt("n"));
        io.snapds.dataset.schema.SchemaRecord now = rec.project(typed.schema().orElseThrow());
        assertEquals(Long.valueOf(rec.getInt("n")), now.getLong("n"));
        assertNull(now.getString("note"));
        ids.add(rec.getLong("id"));
      }
    }
    assertEquals(List.of(-1L, 0L), ids);
    SnapshotReader r = typed.readCurrent();
    try (RowScanner scan = r.scan(RowScan.all())) {
      List<Object> current = new ArrayList<>();
      for (SnapshotRow row : scan) {
        current.add(typed.schema(r.snapshotId()).map(sc -> new io.snapds.dataset.schema.RowCodec(sc, "d"))
            .orElseThrow().decode(row).toMap());
      }
      assertEquals("[{id=-9223372036854775808, n=-9223372036854775808, note=n-9223372036854775808}, "
          + "{id=7, n=7, note=n7}]", current.toString());
    }
  }

  private static SnapshotInfo writeTyped(SnapshotDataset typed, io.snapds.dataset.schema.RowCodec codec,
      List<Long> ids) {
    try (SnapshotWriter w = typed.newSnapshot().begin()) {
      for (long id : ids) {
        java.util.Map<String, Object> values = new java.util.HashMap<>(java.util.Map.of("id", id));
        if (codec.schema().field("n").type().equals(io.snapds.dataset.schema.Type.INT)) {
          values.put("n", (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, id)));
        } else {
          values.put("n", id);
          values.put("note", "n" + id);
        }
        w.put(codec.encode(values));
      }
      return w.commit();
    }
  }

  @Test
  void summaryRecordsWhatWasWritten() {
    long scanned = 0;
    try (RowScanner rows = ds.readSnapshot(snapshot.id()).scan(RowScan.all())) {
      for (SnapshotRow ignored : rows) {
        scanned++;
      }
    }
    // the rows a reader gets (issue 36 item 5): a deleted key and a key written twice count as a reader sees them
    assertEquals(KEYS.length + 1, scanned);
    assertEquals(scanned, snapshot.rowCount(), "the record counts the rows a reader gets");
    assertTrue(snapshot.byteCount() > 0);
    assertEquals("tester", snapshot.writer());
    assertEquals(Optional.of("read-1"), snapshot.runId());
    assertTrue(snapshot.committedAt().isPresent());
    assertEquals(List.of(snapshot), ds.retainedSnapshots());
  }

  @Test
  void getReturnsEveryColumnBinarySafe() {
    SnapshotReader r = ds.readCurrent();
    for (int i = 0; i < KEYS.length; i++) {
      SnapshotRow row = r.get(KEYS[i]).orElseThrow();
      assertArrayEquals(KEYS[i], row.key());
      assertArrayEquals(new byte[] {(byte) i, 0, (byte) 0xFF}, row.value(Bytes.toBytes("d"), new byte[] {1, 0, 2}));
      assertEquals(i, Bytes.toInt(row.value("d", "n")));
      assertEquals("x" + i, Bytes.toString(row.value("x", "extra")));
      assertEquals(3, row.columnCount());
    }
    assertFalse(r.get(Bytes.toBytes("gone")).isPresent());
    assertEquals(99, Bytes.toInt(r.get(Bytes.toBytes("back")).orElseThrow().value("d", "n")));
    assertFalse(r.get(Bytes.toBytes("missing")).isPresent());
  }

  @Test
  void cellsOfARowAreItsColumnsInOrderWithoutTheFamilyMap() {
    SnapshotRow read = ds.readCurrent().get(KEYS[4]).orElseThrow();
    List<String> columns = new ArrayList<>();
    for (Cell c : read.cells()) {
      columns.add(Bytes.toString(CellUtil.cloneFamily(c)) + ":" + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
          + "=" + Bytes.toStringBinary(CellUtil.cloneValue(c)));
      assertArrayEquals(CellUtil.cloneValue(c), read.value(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c)));
    }
    assertEquals(List.of("d:\\x01\\x00\\x02=\\x04\\x00\\xFF", "d:n=\\x00\\x00\\x00\\x04", "x:extra=x4"), columns);
    assertEquals(3, read.columnCount());
    assertEquals(read, new SnapshotRow(read.key(), read.families()), "cells and family map agree");
    SnapshotRow built = new SnapshotRow(read.key(), read.families());
    assertEquals(3, built.cells().size());
    assertArrayEquals(Bytes.toBytes("x4"), CellUtil.cloneValue(built.cells().get(2)));
  }

  @Test
  void singleAndMultiGetReadTheSameRows() {
    SnapshotReader r = ds.readCurrent();
    List<Optional<SnapshotRow>> many = r.get(List.of(KEYS));
    for (int i = 0; i < KEYS.length; i++) {
      assertEquals(many.get(i), r.get(KEYS[i]), "key " + Bytes.toStringBinary(KEYS[i]));
    }
    assertEquals(Optional.empty(), r.get(Bytes.toBytes("gone")));
  }

  @Test
  void multiGetIsAlignedWithTheKeys() {
    List<Optional<SnapshotRow>> rows = ds.readCurrent().get(List.of(KEYS[3], Bytes.toBytes("missing"), KEYS[0]));
    assertEquals(3, rows.size());
    assertArrayEquals(KEYS[3], rows.get(0).orElseThrow().key());
    assertFalse(rows.get(1).isPresent());
    assertArrayEquals(KEYS[0], rows.get(2).orElseThrow().key());
  }

  @Test
  void projectionKeepsOnlyTheColumnsAsked() {
    SnapshotRow row = ds.readCurrent().get(KEYS[4], RowScan.all().column("x", "extra")).orElseThrow();
    assertEquals(1, row.columnCount());
    assertNull(row.value("d", "n"));
    try (RowScanner s = ds.readCurrent().scan(RowScan.all().family("d").limit(2))) {
      int n = 0;
      for (SnapshotRow r : s) {
        assertNull(r.value("x", "extra"));
        assertEquals(2, r.columnCount());
        n++;
      }
      assertEquals(2, n);
    }
  }

  @Test
  void rangesAndPrefixesStayInsideTheSnapshot() {
    SnapshotReader r = ds.readCurrent();
    List<byte[]> all = keys(r.scan(RowScan.all()));
    assertEquals(KEYS.length + 1, all.size()); // + "back"
    List<byte[]> a = keys(r.scan(RowScan.all().prefix(new byte[] {'a'})));
    assertEquals(3, a.size());
    assertArrayEquals(new byte[] {'a', 'b'}, a.get(2));
    List<byte[]> zeros = keys(r.scan(RowScan.all().prefix(new byte[] {0x00})));
    assertEquals(3, zeros.size());
    List<byte[]> ff = keys(r.scan(RowScan.all().prefix(new byte[] {(byte) 0xFF})));
    assertEquals(2, ff.size(), "a prefix of 0xFF has no upper bound but must stay in the snapshot");
    List<byte[]> range = keys(r.scan(RowScan.all().range(new byte[] {0x01}, new byte[] {'b'})));
    assertEquals(4, range.size()); // 0x01, a, a0, ab ("back" sorts after "b")
  }

  @Test
  void readSnapshotByIdReadsTheSameRows() {
    assertEquals(keys(ds.readCurrent().scan(RowScan.all())).size(),
        keys(ds.readSnapshot(snapshot.id()).scan(RowScan.all())).size());
  }
}
