package io.snapds.dataset.mapreduce;

import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.RowChange;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/**
 * A {@link RowChange} as a Hadoop {@link Writable}: the value {@link SnapshotDiffInputFormat}
 * hands to mappers. Written as the kind, then the row as each snapshot holds it (the older one
 * for REMOVED and CHANGED, the newer one for ADDED and CHANGED), each as a {@link
 * SnapshotRowWritable}. Mutable only through {@link #set}, as Writables are reused by the framework.
 */
public final class RowChangeWritable implements Writable {
  private RowChange change;

  /** For the framework; {@link #get} fails until {@link #set} or {@link #readFields}. */
  public RowChangeWritable() {}

  public RowChangeWritable(RowChange change) {
    set(change);
  }

  public RowChange get() {
    checkState(change != null, "no change set");
    return change;
  }

  public void set(RowChange change) {
    this.change = checkNotNull(change, "change must not be null");
  }

  @Override
  public void write(DataOutput out) throws IOException {
    RowChange c = get();
    out.writeByte(c.kind().ordinal());
    if (c.before().isPresent()) {
      new SnapshotRowWritable(c.before().get()).write(out);
    }
    if (c.after().isPresent()) {
      new SnapshotRowWritable(c.after().get()).write(out);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    int ordinal = in.readByte();
    RowChange.Kind[] kinds = RowChange.Kind.values();
    if (ordinal < 0 || ordinal >= kinds.length) {
      throw new IOException("unknown row change kind " + ordinal + ": the writer runs a newer snapds version");
    }
    RowChange.Kind kind = kinds[ordinal];
    SnapshotRowWritable before = new SnapshotRowWritable();
    SnapshotRowWritable after = new SnapshotRowWritable();
    if (kind != RowChange.Kind.ADDED) {
      before.readFields(in);
    }
    if (kind != RowChange.Kind.REMOVED) {
      after.readFields(in);
    }
    change = switch (kind) {
      case ADDED -> RowChange.added(after.get());
      case REMOVED -> RowChange.removed(before.get());
      case CHANGED -> RowChange.changed(before.get(), after.get());
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowChangeWritable other && java.util.Objects.equals(change, other.change);
  }

  @Override
  public int hashCode() {
    return change == null ? 0 : change.hashCode();
  }

  @Override
  public String toString() {
    return String.valueOf(change);
  }
}
