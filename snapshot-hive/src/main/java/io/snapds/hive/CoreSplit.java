package io.snapds.hive;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileSplit;

/**
 * A split of the core's read plan ({@code ReadSplit} or {@code DiffSplit}) as the split Hive hands
 * its tasks, as HBase's snapshot splits hold a {@code TableSnapshotInputFormatImpl.InputSplit}: the
 * core split travels with it, so every task reads the snapshots chosen when the splits were made. A
 * {@link FileSplit} because Hive's input splits must be (the path is the table's location and is
 * not read). Subclasses say how their core split is written, read and located.
 */
abstract class CoreSplit<T> extends FileSplit {
  private T split;

  /** For Writable. */
  CoreSplit() {
    super();
  }

  CoreSplit(Path tablePath, T split, String[] locations) {
    super(tablePath, 0, 0, locations);
    this.split = split;
  }

  /** The core split this one carries. */
  final T delegate() {
    return split;
  }

  abstract String[] locations(T split);

  abstract void writeDelegate(T split, DataOutput out) throws IOException;

  abstract T readDelegate(DataInput in) throws IOException;

  @Override
  public final String[] getLocations() {
    return locations(split);
  }

  @Override
  public final void write(DataOutput out) throws IOException {
    super.write(out);
    writeDelegate(split, out);
  }

  @Override
  public final void readFields(DataInput in) throws IOException {
    super.readFields(in);
    split = readDelegate(in);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{" + split + "}";
  }
}
