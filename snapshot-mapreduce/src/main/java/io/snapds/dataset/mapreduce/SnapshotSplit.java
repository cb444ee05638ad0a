package io.snapds.dataset.mapreduce;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.ReadSplit;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A core {@link ReadSplit} (one region's part of one pinned snapshot) as an input split of both
 * MapReduce APIs, as HBase's {@code TableSnapshotInputFormatImpl.InputSplit} is held by its
 * adapters' splits. The snapshot id travels in every split, so every task and every retry reads
 * the same snapshot.
 */
@InterfaceAudience.Private
public final class SnapshotSplit extends org.apache.hadoop.mapreduce.InputSplit
    implements org.apache.hadoop.mapred.InputSplit {
  private ReadSplit split;

  /** For the framework, which fills it with {@link #readFields}. */
  public SnapshotSplit() {}

  public SnapshotSplit(ReadSplit split) {
    this.split = split;
  }

  /** The core split this one carries. */
  public ReadSplit delegate() {
    return split;
  }

  public DatasetId dataset() {
    return split.dataset();
  }

  public SnapshotId snapshotId() {
    return split.snapshotId();
  }

  /** First data table row key of the split (inclusive): snapshot prefix and user key. */
  public byte[] startRow() {
    return split.startRow();
  }

  /** First data table row key after the split (exclusive). */
  public byte[] stopRow() {
    return split.stopRow();
  }

  /** Unknown: a region holds several snapshots, and counting this one's bytes would cost a scan. */
  @Override
  public long getLength() {
    return 0;
  }

  @Override
  public String[] getLocations() {
    return split.locations();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    split.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    split = ReadSplit.read(in);
  }

  @Override
  public String toString() {
    return "SnapshotSplit{" + split + "}";
  }
}
