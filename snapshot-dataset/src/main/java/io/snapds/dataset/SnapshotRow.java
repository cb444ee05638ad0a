package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkNotNull;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.NavigableMap;
import java.util.RandomAccess;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One row of a snapshot as its user wrote it: the user's row key (without the snapshot prefix)
 * and its cells, family to qualifier to value. Immutable.
 */
public final class SnapshotRow {
  /** The user's key; null for a row over stored cells, whose first cell holds it after the prefix. */
  private final byte[] key;
  /** The cells as HBase returned them (sorted, one version each), or null for a built row. */
  private final Cell[] cells;
  /** For a row over stored cells: the length of the snapshot's key prefix before the user's key. */
  private final int prefixLength;
  /** Built on first use for a row read from HBase; immutable once set. */
  private volatile NavigableMap<byte[], NavigableMap<byte[], byte[]>> families;

  public SnapshotRow(byte[] key, NavigableMap<byte[], NavigableMap<byte[], byte[]>> families) {
    this.key = checkNotNull(key, "key").clone();
    this.cells = null;
    this.prefixLength = 0;
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> copy = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.forEach((f, cols) -> {
      NavigableMap<byte[], byte[]> c = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      c.putAll(cols);
      copy.put(f, Collections.unmodifiableNavigableMap(c));
    });
    this.families = Collections.unmodifiableNavigableMap(copy);
  }

  private SnapshotRow(byte[] key, Cell[] cells, int prefixLength) {
    this.key = key;
    this.cells = cells;
    this.prefixLength = prefixLength;
  }

  /**
   * A row over cells read from HBase, without copying them: the family map is built only if
   * asked for, and {@link #value} looks a column up directly. For readers of the data table.
   *
   * @param userKey the user's row key (the caller's own copy)
   * @param cells the row's cells in HBase order, one version per column
   */
  public static SnapshotRow ofCells(byte[] userKey, Cell[] cells) {
    return new SnapshotRow(checkNotNull(userKey, "key"), checkNotNull(cells, "cells"), 0);
  }

  /**
   * A row over the cells of a data-table {@code Result}, whose row key is the snapshot's key
   * prefix ({@code prefixLength} bytes) and then the user's key. Nothing is copied: the user's key
   * is read out of the first cell when {@link #key()} asks for it, so a reader that only looks at
   * the cells pays for no key at all. For readers of the data table.
   *
   * @param cells the row's cells in HBase order, one version per column; at least one
   * @param prefixLength the length of the snapshot's key prefix ({@link SnapshotKeys#prefixLength()})
   * @throws IllegalArgumentException when there is no cell or the row key is shorter than the prefix
   */
  public static SnapshotRow ofStoredCells(Cell[] cells, int prefixLength) {
    checkNotNull(cells, "cells");
    if (cells.length == 0 || prefixLength < 0 || cells[0].getRowLength() < prefixLength) {
      throw new IllegalArgumentException("a stored row needs a cell whose row key holds the " + prefixLength
          + "-byte snapshot prefix; got " + (cells.length == 0 ? "no cell" : "row "
          + Bytes.toStringBinary(cells[0].getRowArray(), cells[0].getRowOffset(), cells[0].getRowLength())));
    }
    return new SnapshotRow(null, cells, prefixLength);
  }

  /** The user's row key, a copy the caller owns. */
  public byte[] key() {
    return key != null ? key.clone() : storedKey();
  }

  /** The user's key of a row over stored cells: copied out of the first cell's row. */
  private byte[] storedKey() {
    Cell first = cells[0];
    int from = first.getRowOffset() + prefixLength;
    return Arrays.copyOfRange(first.getRowArray(), from, first.getRowOffset() + first.getRowLength());
  }

  /** The key for this class's own use (never handed out): no copy when the row holds one. */
  private byte[] keyBytes() {
    return key != null ? key : storedKey();
  }

  public String keyAsString() {
    if (key != null) {
      return Bytes.toStringBinary(key);
    }
    Cell first = cells[0];
    return Bytes.toStringBinary(first.getRowArray(), first.getRowOffset() + prefixLength,
        first.getRowLength() - prefixLength);
  }

  /** Family to (qualifier to value), sorted by bytes. */
  public NavigableMap<byte[], NavigableMap<byte[], byte[]>> families() {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> f = families;
    if (f == null) {
      f = buildFamilies(cells);
      families = f;
    }
    return f;
  }

  private static NavigableMap<byte[], NavigableMap<byte[], byte[]>> buildFamilies(Cell[] cells) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    NavigableMap<byte[], byte[]> cols = null;
    byte[] family = null;
    for (Cell c : cells) {
      if (family == null || !CellUtil.matchingFamily(c, family)) {
        family = CellUtil.cloneFamily(c);
        cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        out.put(family, cols);
      }
      cols.putIfAbsent(CellUtil.cloneQualifier(c), CellUtil.cloneValue(c)); // newest version first
    }
    out.replaceAll((f, c) -> Collections.unmodifiableNavigableMap(c));
    return Collections.unmodifiableNavigableMap(out);
  }

  /**
   * The row's cells in HBase order (family, then qualifier), one per column, without building the
   * family map and without copying: for a row read from HBase these are the cells of the
   * {@code Result}, in an unmodifiable list over them. A cell's row is the stored key there (the
   * snapshot's key prefix, then the user's key), the user's key in a row built in memory: use
   * {@link #key()} for the key. Read a cell's parts with {@code CellUtil} or the cell's
   * array/offset/length accessors, as with any HBase {@code Result}.
   */
  public List<Cell> cells() {
    if (cells != null) {
      return new CellList(cells);
    }
    List<Cell> out = new ArrayList<>();
    families.forEach((f, cols) -> cols.forEach((q, v) -> out.add(new KeyValue(key, f, q, v))));
    return Collections.unmodifiableList(out);
  }

  /**
   * An unmodifiable list over a row's cells: one object and an index for its iterator, where
   * {@code unmodifiableList(asList(...))} makes two and iterates through two layers. It is on the
   * read path once per row.
   */
  private static final class CellList extends AbstractList<Cell> implements RandomAccess {
    private final Cell[] cells;

    CellList(Cell[] cells) {
      this.cells = cells;
    }

    @Override
    public Cell get(int index) {
      return cells[index];
    }

    @Override
    public int size() {
      return cells.length;
    }

    @Override
    public Iterator<Cell> iterator() {
      return new Iterator<>() {
        private int next;

        @Override
        public boolean hasNext() {
          return next < cells.length;
        }

        @Override
        public Cell next() {
          if (next >= cells.length) {
            throw new NoSuchElementException();
          }
          return cells[next++];
        }
      };
    }
  }

  /** The value of one column, or null when the row has no such column. */
  public byte[] value(byte[] family, byte[] qualifier) {
    if (cells != null && families == null) {
      for (Cell c : cells) {
        if (CellUtil.matchingColumn(c, family, qualifier)) {
          return CellUtil.cloneValue(c);
        }
      }
      return null;
    }
    NavigableMap<byte[], byte[]> cols = families().get(family);
    return cols == null ? null : cols.get(qualifier);
  }

  public byte[] value(String family, String qualifier) {
    return value(Bytes.toBytes(family), Bytes.toBytes(qualifier));
  }

  public int columnCount() {
    if (cells != null && families == null) {
      return cells.length;
    }
    return families().values().stream().mapToInt(NavigableMap::size).sum();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SnapshotRow other) || !Arrays.equals(keyBytes(), other.keyBytes())
        || families().size() != other.families().size()) {
      return false;
    }
    for (var f : families().entrySet()) {
      NavigableMap<byte[], byte[]> otherCols = other.families().get(f.getKey());
      if (otherCols == null || otherCols.size() != f.getValue().size()) {
        return false;
      }
      for (var c : f.getValue().entrySet()) {
        if (!Arrays.equals(c.getValue(), otherCols.get(c.getKey()))) {
          return false;
        }
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = Arrays.hashCode(keyBytes());
    for (var f : families().entrySet()) {
      for (var c : f.getValue().entrySet()) {
        h = 31 * h + Arrays.hashCode(c.getKey()) ^ Arrays.hashCode(c.getValue());
      }
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(keyAsString()).append(" {");
    families().forEach((f, cols) -> cols.forEach((q, v) -> sb.append(' ').append(Bytes.toString(f))
        .append(':').append(Bytes.toStringBinary(q)).append('=').append(Bytes.toStringBinary(v))));
    return sb.append(" }").toString();
  }
}
