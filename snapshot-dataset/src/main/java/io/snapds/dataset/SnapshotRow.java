package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Arrays;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One row of a snapshot as its user wrote it: the user's row key (without the snapshot prefix)
 * and its cells, family to qualifier to value. Immutable.
 */
public final class SnapshotRow {
  private final byte[] key;
  private final NavigableMap<byte[], NavigableMap<byte[], byte[]>> families;

  public SnapshotRow(byte[] key, NavigableMap<byte[], NavigableMap<byte[], byte[]>> families) {
    this.key = checkNotNull(key, "key").clone();
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> copy = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.forEach((f, cols) -> {
      NavigableMap<byte[], byte[]> c = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      c.putAll(cols);
      copy.put(f, Collections.unmodifiableNavigableMap(c));
    });
    this.families = Collections.unmodifiableNavigableMap(copy);
  }

  public byte[] key() {
    return key.clone();
  }

  public String keyAsString() {
    return Bytes.toStringBinary(key);
  }

  /** Family to (qualifier to value), sorted by bytes. */
  public NavigableMap<byte[], NavigableMap<byte[], byte[]>> families() {
    return families;
  }

  /** The value of one column, or null when the row has no such column. */
  public byte[] value(byte[] family, byte[] qualifier) {
    NavigableMap<byte[], byte[]> cols = families.get(family);
    return cols == null ? null : cols.get(qualifier);
  }

  public byte[] value(String family, String qualifier) {
    return value(Bytes.toBytes(family), Bytes.toBytes(qualifier));
  }

  public int columnCount() {
    return families.values().stream().mapToInt(NavigableMap::size).sum();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SnapshotRow other) || !Arrays.equals(key, other.key)
        || families.size() != other.families.size()) {
      return false;
    }
    for (var f : families.entrySet()) {
      NavigableMap<byte[], byte[]> otherCols = other.families.get(f.getKey());
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
    for (var f : families.entrySet()) {
      for (var c : f.getValue().entrySet()) {
        h = 31 * h + Arrays.hashCode(c.getKey()) ^ Arrays.hashCode(c.getValue());
      }
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(keyAsString()).append(" {");
    families.forEach((f, cols) -> cols.forEach((q, v) -> sb.append(' ').append(Bytes.toString(f))
        .append(':').append(Bytes.toStringBinary(q)).append('=').append(Bytes.toStringBinary(v))));
    return sb.append(" }").toString();
  }
}
