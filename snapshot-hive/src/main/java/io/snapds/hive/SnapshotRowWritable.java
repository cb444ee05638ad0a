package io.snapds.hive;

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
 * One snapshot row between the record reader (or the SerDe's serialize) and the SerDe (or the
 * record writer): the user's row key and its cells.
 */
public final class SnapshotRowWritable implements Writable {
  private SnapshotRow row;

  public SnapshotRowWritable() {}

  public SnapshotRowWritable(SnapshotRow row) {
    this.row = row;
  }

  public SnapshotRow get() {
    return row;
  }

  public void set(SnapshotRow row) {
    this.row = row;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Bytes.writeByteArray(out, row.key());
    WritableUtils.writeVInt(out, row.families().size());
    for (var f : row.families().entrySet()) {
      Bytes.writeByteArray(out, f.getKey());
      WritableUtils.writeVInt(out, f.getValue().size());
      for (var c : f.getValue().entrySet()) {
        Bytes.writeByteArray(out, c.getKey());
        Bytes.writeByteArray(out, c.getValue());
      }
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    byte[] key = Bytes.readByteArray(in);
    int families = WritableUtils.readVInt(in);
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (int i = 0; i < families; i++) {
      byte[] family = Bytes.readByteArray(in);
      int columns = WritableUtils.readVInt(in);
      NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      for (int j = 0; j < columns; j++) {
        cols.put(Bytes.readByteArray(in), Bytes.readByteArray(in));
      }
      cells.put(family, cols);
    }
    row = new SnapshotRow(key, cells);
  }

  @Override
  public String toString() {
    return String.valueOf(row);
  }
}
