package io.snapds.dataset.mapreduce;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.WritableUtils;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * One region's part of one snapshot: the data table rows {@code [startRow, stopRow)} of the
 * snapshot the job pinned, and the host that serves them. The snapshot id travels in every split,
 * so every task and every retry reads the same snapshot. Serves both MapReduce APIs.
 */
@InterfaceAudience.Private
public final class SnapshotSplit extends org.apache.hadoop.mapreduce.InputSplit
    implements org.apache.hadoop.mapred.InputSplit {
  private String dataset;
  private long snapshot;
  private byte[] startRow;
  private byte[] stopRow;
  private String host;

  /** For the framework, which fills it with {@link #readFields}. */
  public SnapshotSplit() {}

  SnapshotSplit(DatasetId dataset, SnapshotId snapshot, byte[] startRow, byte[] stopRow, String host) {
    checkArgument(Bytes.compareTo(startRow, stopRow) < 0, "empty split [%s, %s)",
        Bytes.toStringBinary(startRow), Bytes.toStringBinary(stopRow));
    this.dataset = dataset.toString();
    this.snapshot = snapshot.value();
    this.startRow = startRow.clone();
    this.stopRow = stopRow.clone();
    this.host = host == null ? "" : host;
  }

  public DatasetId dataset() {
    return DatasetId.parse(dataset);
  }

  public SnapshotId snapshotId() {
    return SnapshotId.of(snapshot);
  }

  /** First data table row key of the split (inclusive): snapshot prefix and user key. */
  public byte[] startRow() {
    return startRow.clone();
  }

  /** First data table row key after the split (exclusive). */
  public byte[] stopRow() {
    return stopRow.clone();
  }

  /** Unknown: a region holds several snapshots, and counting this one's bytes would cost a scan. */
  @Override
  public long getLength() {
    return 0;
  }

  @Override
  public String[] getLocations() {
    return host.isEmpty() ? new String[0] : new String[] {host};
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeString(out, dataset);
    out.writeLong(snapshot);
    Bytes.writeByteArray(out, startRow);
    Bytes.writeByteArray(out, stopRow);
    WritableUtils.writeString(out, host);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    dataset = WritableUtils.readString(in);
    snapshot = in.readLong();
    startRow = Bytes.readByteArray(in);
    stopRow = Bytes.readByteArray(in);
    host = WritableUtils.readString(in);
  }

  @Override
  public String toString() {
    return "SnapshotSplit{" + dataset + " @ " + snapshot + " [" + Bytes.toStringBinary(startRow) + ", "
        + Bytes.toStringBinary(stopRow) + ") on " + (host.isEmpty() ? "?" : host) + "}";
  }
}
