package io.snapds.hive;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/**
 * What the record reader hands the SerDe: a row and the snapshot it was read from, so that a
 * table over a dataset with a schema decodes each row with the schema its snapshot was written
 * with (a query can read several snapshots of one dataset). Mutable, reused by the reader.
 */
public final class HiveSnapshotRow implements Writable {
  private final SnapshotRowWritable row = new SnapshotRowWritable();
  private long snapshot;

  /** For the framework. */
  public HiveSnapshotRow() {}

  void set(SnapshotRow value, SnapshotId from) {
    row.set(value);
    snapshot = from.value();
  }

  public SnapshotRow row() {
    return row.get();
  }

  public SnapshotId snapshot() {
    return SnapshotId.of(snapshot);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeLong(snapshot);
    row.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    snapshot = in.readLong();
    row.readFields(in);
  }
}
