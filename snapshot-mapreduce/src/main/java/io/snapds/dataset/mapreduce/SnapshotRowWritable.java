package io.snapds.dataset.mapreduce;

import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.SnapshotRow;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * A {@link SnapshotRow} as a Hadoop {@link Writable}: the value {@link SnapshotInputFormat} hands
 * to mappers and {@link SnapshotOutputFormat} writes. The row key is the user's key (without the
 * snapshot prefix). Mutable only through {@link #set}, as Writables are reused by the framework;
 * the row itself is immutable.
 */
public final class SnapshotRowWritable implements Writable {
  private SnapshotRow row;

  /** For the framework; {@link #get} fails until {@link #set} or {@link #readFields}. */
  public SnapshotRowWritable() {}

  public SnapshotRowWritable(SnapshotRow row) {
    set(row);
  }

  public SnapshotRow get() {
    checkState(row != null, "no row set");
    return row;
  }

  public void set(SnapshotRow row) {
    this.row = checkNotNull(row, "row must not be null");
  }

  @Override
  public void write(DataOutput out) throws IOException {
    SnapshotRow r = get();
    Bytes.writeByteArray(out, r.key());
    WritableUtils.writeVInt(out, r.families().size());
    for (var family : r.families().entrySet()) {
      Bytes.writeByteArray(out, family.getKey());
      WritableUtils.writeVInt(out, family.getValue().size());
      for (var cell : family.getValue().entrySet()) {
        Bytes.writeByteArray(out, cell.getKey());
        Bytes.writeByteArray(out, cell.getValue());
      }
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    byte[] key = Bytes.readByteArray(in);
    int families = WritableUtils.readVInt(in);
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (int f = 0; f < families; f++) {
      byte[] family = Bytes.readByteArray(in);
      int columns = WritableUtils.readVInt(in);
      NavigableMap<byte[], byte[]> values = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      for (int c = 0; c < columns; c++) {
        values.put(Bytes.readByteArray(in), Bytes.readByteArray(in));
      }
      cells.put(family, values);
    }
    row = new SnapshotRow(key, cells);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SnapshotRowWritable other && java.util.Objects.equals(row, other.row);
  }

  @Override
  public int hashCode() {
    return row == null ? 0 : row.hashCode();
  }

  @Override
  public String toString() {
    return String.valueOf(row);
  }
}
