package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.store.DataTable;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** A row read from the data table: its user key, its cells and its equality with a built row. */
class SnapshotRowTest {
  private static final byte[] D = Bytes.toBytes("d");

  /** Cells as a region server returns them: each in a buffer of its own with bytes around it. */
  private static Cell[] stored(byte[] rowKey, String... columns) {
    Cell[] cells = new Cell[columns.length];
    for (int i = 0; i < columns.length; i++) {
      KeyValue kv = new KeyValue(rowKey, D, Bytes.toBytes(columns[i]), 7L, Bytes.toBytes("v-" + columns[i]));
      byte[] buffer = new byte[kv.getLength() + 13]; // a cell inside a larger buffer, at an offset
      System.arraycopy(kv.getBuffer(), kv.getOffset(), buffer, 5, kv.getLength());
      cells[i] = new KeyValue(buffer, 5, kv.getLength());
    }
    return cells;
  }

  @Test
  void aStoredRowGivesTheUserKeyWithoutThePrefixForEveryPrefixLength() {
    for (SnapshotKeys keys : List.of(SnapshotKeys.numbered(SnapshotId.of(1_796_000_000_000_000_000L), 1),
        SnapshotKeys.numbered(SnapshotId.of(1_796_000_000_000_000_000L), 1_000_000),
        SnapshotKeys.legacy(SnapshotId.of(1_796_000_000_000_000_000L)))) {
      byte[] userKey = Bytes.toBytes("user-key-42");
      Cell[] cells = stored(keys.rowKey(userKey), "a", "b");
      SnapshotRow row = DataTable.toRow(keys, Result.create(cells));
      assertArrayEquals(userKey, row.key(), keys.toString());
      assertEquals("user-key-42", row.keyAsString());
      assertNotSame(row.key(), row.key(), "key() hands out a copy the caller owns");
      byte[] mine = row.key();
      mine[0] = 'X';
      assertArrayEquals(userKey, row.key(), "changing a copy changes nothing in the row");
      assertEquals(2, row.columnCount());
      assertArrayEquals(Bytes.toBytes("v-b"), row.value(D, Bytes.toBytes("b")));
      assertNull(row.value(D, Bytes.toBytes("c")));
      assertSame(cells[1], row.cells().get(1), "cells() does not copy");
    }
  }

  @Test
  void anEmptyUserKeyIsAKeyToo() {
    SnapshotKeys keys = SnapshotKeys.numbered(SnapshotId.of(1_796_000_000_000_000_000L), 3);
    SnapshotRow row = SnapshotRow.ofStoredCells(stored(keys.prefix(), "a"), keys.prefixLength());
    assertArrayEquals(new byte[0], row.key());
  }

  @Test
  void aStoredRowEqualsTheSameRowBuiltInMemory() {
    SnapshotKeys keys = SnapshotKeys.numbered(SnapshotId.of(1_796_000_000_000_000_000L), 300);
    SnapshotRow read = SnapshotRow.ofStoredCells(stored(keys.rowKey(Bytes.toBytes("k1")), "a", "b"),
        keys.prefixLength());
    NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    cols.put(Bytes.toBytes("a"), Bytes.toBytes("v-a"));
    cols.put(Bytes.toBytes("b"), Bytes.toBytes("v-b"));
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(D, cols);
    SnapshotRow built = new SnapshotRow(Bytes.toBytes("k1"), families);
    assertEquals(built, read);
    assertEquals(read, built);
    assertEquals(built.hashCode(), read.hashCode());
    assertEquals(built.toString(), read.toString());
    cols.put(Bytes.toBytes("b"), Bytes.toBytes("other"));
    assertTrue(!new SnapshotRow(Bytes.toBytes("k1"), families).equals(read), "a different value differs");
    assertTrue(!new SnapshotRow(Bytes.toBytes("k2"), families).equals(read), "a different key differs");
  }

  @Test
  void theCellListCannotBeChangedAndItsIteratorEnds() {
    SnapshotRow row = SnapshotRow.ofStoredCells(stored(Bytes.toBytes("\u0002\u0001k"), "a"), 2);
    List<Cell> cells = row.cells();
    assertThrows(UnsupportedOperationException.class, () -> cells.set(0, null));
    assertThrows(UnsupportedOperationException.class, () -> cells.add(null));
    assertThrows(UnsupportedOperationException.class, () -> cells.remove(0));
    Iterator<Cell> it = cells.iterator();
    it.next();
    assertThrows(UnsupportedOperationException.class, it::remove);
    assertThrows(NoSuchElementException.class, it::next);
  }

  @Test
  void aStoredRowWithoutCellsOrShorterThanItsPrefixIsRefusedByName() {
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> SnapshotRow.ofStoredCells(new Cell[0], 2));
    assertTrue(none.getMessage().contains("no cell"), none.getMessage());
    IllegalArgumentException shortKey = assertThrows(IllegalArgumentException.class,
        () -> SnapshotRow.ofStoredCells(stored(Bytes.toBytes("ab"), "a"), 8));
    assertTrue(shortKey.getMessage().contains("8-byte") && shortKey.getMessage().contains("row ab"),
        shortKey.getMessage());
  }
}
