package io.snapds.cdap;

import io.snapds.dataset.mapreduce.SnapshotRecordSplit;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * A {@link SnapshotRecordSplit} under a class name CDAP can load in a task: CDAP's MapReduce runtime
 * deserializes input splits by class name through its own class loader, which sees a plugin's
 * exported packages only, not the core in the plugin's {@code lib/} ("Class
 * io.snapds.dataset.mapreduce.SnapshotSplit not found", seen in a real pipeline).
 */
public final class PipelineSnapshotSplit extends InputSplit implements Writable {
  private SnapshotRecordSplit split;

  /** For deserialization. */
  public PipelineSnapshotSplit() {
    this.split = new SnapshotRecordSplit();
  }

  PipelineSnapshotSplit(SnapshotRecordSplit split) {
    this.split = split;
  }

  SnapshotRecordSplit split() {
    return split;
  }

  @Override
  public long getLength() {
    return split.getLength();
  }

  @Override
  public String[] getLocations() {
    return split.getLocations();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    split.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    split.readFields(in);
  }

  @Override
  public String toString() {
    return split.toString();
  }
}
