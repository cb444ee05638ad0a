package io.snapds.hive;

import io.snapds.dataset.read.DiffSplit;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileSplit;

/**
 * A core {@link DiffSplit} (the same user-key range of two pinned snapshots, cut where a region of
 * either begins) as the split Hive hands its tasks: one per piece of the diff's read plan. Both
 * snapshot ids travel with the split. A {@link FileSplit} because Hive's input splits must be (the
 * path is the table's location and is not read).
 */
public final class SnapshotDiffSplit extends FileSplit {
  private DiffSplit split;

  /** For Writable. */
  public SnapshotDiffSplit() {
    super();
  }

  SnapshotDiffSplit(Path tablePath, DiffSplit split) {
    super(tablePath, 0, 0, split.locations());
    this.split = split;
  }

  /** The core split this one carries. */
  DiffSplit delegate() {
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
    split = DiffSplit.read(in);
  }

  @Override
  public String toString() {
    return "SnapshotDiffSplit{" + split + "}";
  }
}
