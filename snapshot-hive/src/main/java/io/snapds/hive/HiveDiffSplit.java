package io.snapds.hive;

import io.snapds.dataset.read.DiffSplit;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * A core {@link DiffSplit} (the same user-key range of two pinned snapshots, cut where a region of
 * either begins) as Hive's split: one per piece of the diff's read plan, both snapshot ids with it.
 */
public final class HiveDiffSplit extends CoreSplit<DiffSplit> {
  /** For Writable. */
  public HiveDiffSplit() {
    super();
  }

  HiveDiffSplit(Path tablePath, DiffSplit split) {
    super(tablePath, split, split.locations());
  }

  @Override
  String[] locations(DiffSplit split) {
    return split.locations();
  }

  @Override
  void writeDelegate(DiffSplit split, DataOutput out) throws IOException {
    split.write(out);
  }

  @Override
  DiffSplit readDelegate(DataInput in) throws IOException {
    return DiffSplit.read(in);
  }
}
