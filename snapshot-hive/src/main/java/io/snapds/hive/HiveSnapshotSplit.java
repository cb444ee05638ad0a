package io.snapds.hive;

import io.snapds.dataset.read.ReadSplit;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.fs.Path;

/** A core {@link ReadSplit} (the rows of one region within one pinned snapshot) as Hive's split. */
public final class HiveSnapshotSplit extends CoreSplit<ReadSplit> {
  /** For Writable. */
  public HiveSnapshotSplit() {
    super();
  }

  HiveSnapshotSplit(Path tablePath, ReadSplit split) {
    super(tablePath, split, split.locations());
  }

  @Override
  String[] locations(ReadSplit split) {
    return split.locations();
  }

  @Override
  void writeDelegate(ReadSplit split, DataOutput out) throws IOException {
    split.write(out);
  }

  @Override
  ReadSplit readDelegate(DataInput in) throws IOException {
    return ReadSplit.read(in);
  }
}
