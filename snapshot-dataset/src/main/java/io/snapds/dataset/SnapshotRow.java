package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkNotNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
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
  private final byte[] key;
  /** The cells as HBase returned them (sorted, one version each), or null for a built row. */
  private final Cell[] cells;
  /** Built on first use for a row read from HBase; immutable once set. */
  private volatile NavigableMap<byte[], NavigableMap<byte[], byte[]>> families;

  public SnapshotRow(byte[] key, NavigableMap<byte[], NavigableMap<byte[], byte[]>> families) {
    this.key = checkNotNull(key, "key").clone();
    this.cells = null;
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> copy = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.forEach((f, cols) -> {
      NavigableMap<byte[], byte[]> c = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      c.putAll(cols);
      copy.put(f, Collections.unmodifiableNavigableMap(c));
    });
    this.families = Collections.unmodifiableNavigableMap(copy);
  }

  private SnapshotRow(byte[] key, Cell[] cells) {
    this.key = key;
    this.cells = cells;
  }

  /**
   * A row over cells read from HBase, without copying them: the family map is built only if
   * asked for, and {@link #value} looks a column up directly. For readers of the data table.
   *
   * @param userKey the user's row key (the caller's own copy)
   * @param cells the row's cells in HBase order, one version per column
   */
  public static SnapshotRow ofCells(byte[] userKey, Cell[] cells) {
    return new SnapshotRow(checkNotNull(userKey, "key"), checkNotNull(cells, "cells"));
  }

  public byte[] key() {
    return key.clone();
  }

  public String keyAsString() {
    return Bytes.toStringBinary(key);
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
   * {@code Result}. A cell's row is the stored key there (the 8-byte snapshot id, then the user's
   * key), the user's key in a row built in memory: use {@link #key()} for the key. Read a cell's parts with {@code CellUtil} or the cell's
   * array/offset/length accessors, as with any HBase {@code Result}.
   */
  public List<Cell> cells() {
    if (cells != null) {
      return Collections.unmodifiableList(Arrays.asList(cells));
    }
    List<Cell> out = new ArrayList<>();
    families.forEach((f, cols) -> cols.forEach((q, v) -> out.add(new KeyValue(key, f, q, v))));
    return Collections.unmodifiableList(out);
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
    if (!(o instanceof SnapshotRow other) || !Arrays.equals(key, other.key)
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
    int h = Arrays.hashCode(key);
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
