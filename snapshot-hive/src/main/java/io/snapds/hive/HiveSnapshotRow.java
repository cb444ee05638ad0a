package io.snapds.hive;

import io.snapds.dataset.RowChange;
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
 * with (a query can read several snapshots of one dataset). A diff's reader adds the change type
 * (the row is then the old row of a REMOVED change, else the new one) and the older snapshot's row
 * (for {@code :old:} columns). Mutable, reused by the reader.
 */
public final class HiveSnapshotRow implements Writable {
  private final SnapshotRowWritable row = new SnapshotRowWritable();
  private long snapshot;
  private RowChange.Kind change;
  /** A diff's row as the older snapshot holds it (CHANGED, REMOVED); absent otherwise. */
  private final SnapshotRowWritable before = new SnapshotRowWritable();
  private boolean hasBefore;

  /** For the framework. */
  public HiveSnapshotRow() {}

  void set(SnapshotRow value, SnapshotId from) {
    set(value, from, null);
  }

  /** @param change the change type of a diff's row; null for a row of one snapshot */
  void set(SnapshotRow value, SnapshotId from, RowChange.Kind change) {
    set(value, from, change, null);
  }

  /** @param older the row in a diff's older snapshot; null for an ADDED row or a row of one snapshot */
  void set(SnapshotRow value, SnapshotId from, RowChange.Kind change, SnapshotRow older) {
    row.set(value);
    snapshot = from.value();
    this.change = change;
    hasBefore = older != null;
    if (hasBefore) {
      before.set(older);
    }
  }

  public SnapshotRow row() {
    return row.get();
  }

  public SnapshotId snapshot() {
    return SnapshotId.of(snapshot);
  }

  /** The change type of a diff's row; null for a row read from one snapshot. */
  public RowChange.Kind change() {
    return change;
  }

  /** A diff's row as its older snapshot holds it; null for an ADDED row and a row of one snapshot. */
  public SnapshotRow older() {
    return hasBefore ? before.get() : null;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeLong(snapshot);
    out.writeByte(change == null ? -1 : change.ordinal());
    row.write(out);
    out.writeBoolean(hasBefore);
    if (hasBefore) {
      before.write(out);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    snapshot = in.readLong();
    int c = in.readByte();
    change = c < 0 ? null : RowChange.Kind.values()[c];
    row.readFields(in);
    hasBefore = in.readBoolean();
    if (hasBefore) {
      before.readFields(in);
    }
  }
}
