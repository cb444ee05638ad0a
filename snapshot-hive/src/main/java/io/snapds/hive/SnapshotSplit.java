package io.snapds.hive;

import io.snapds.dataset.read.ReadSplit;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileSplit;

/**
 * A core {@link ReadSplit} (the rows of one region within one pinned snapshot) as the split Hive
 * hands its tasks, as HBase's snapshot splits hold a {@code TableSnapshotInputFormatImpl.InputSplit}.
 * The snapshot id travels with the split, so every task reads the snapshot chosen when the splits
 * were made. A {@link FileSplit} because Hive's input splits must be (the path is the table's
 * location and is not read).
 */
public final class SnapshotSplit extends FileSplit {
  private ReadSplit split;

  /** For Writable. */
  public SnapshotSplit() {
    super();
  }

  SnapshotSplit(Path tablePath, ReadSplit split) {
    super(tablePath, 0, 0, split.locations());
    this.split = split;
  }

  /** The core split this one carries. */
  ReadSplit delegate() {
    return split;
  }

  @Override
  public String[] getLocations() {
    return split.locations();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    super.write(out);
    split.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    super.readFields(in);
    split = ReadSplit.read(in);
  }

  @Override
  public String toString() {
    return "SnapshotSplit{" + split + "}";
  }
}
