package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapred.FileSplit;

/**
 * One part of a snapshot scan: the rows {@code [startRow, stopRow)} of the data table, inside one
 * region and one snapshot. The snapshot id travels with the split, so every task reads the
 * snapshot chosen when the splits were made. A {@link FileSplit} because Hive's input splits must
 * be (the path is the table's location and is not read).
 */
public final class SnapshotSplit extends FileSplit {
  private String dataset;
  private long snapshot;
  private byte[] startRow;
  private byte[] stopRow;
  private String location;

  /** For Writable. */
  public SnapshotSplit() {
    super();
  }

  SnapshotSplit(Path tablePath, DatasetId dataset, SnapshotId snapshot, byte[] startRow, byte[] stopRow,
      String location) {
    super(tablePath, 0, 0, location == null ? new String[0] : new String[] {location});
    this.dataset = dataset.toString();
    this.snapshot = snapshot.value();
    this.startRow = startRow.clone();
    this.stopRow = stopRow.clone();
    this.location = location == null ? "" : location;
  }

  public DatasetId dataset() {
    return DatasetId.parse(dataset);
  }

  public SnapshotId snapshotId() {
    return SnapshotId.of(snapshot);
  }

  /** First data-table row (inclusive), snapshot prefix included. */
  public byte[] startRow() {
    return startRow.clone();
  }

  /** Data-table row after the last one (exclusive), snapshot prefix included. */
  public byte[] stopRow() {
    return stopRow.clone();
  }

  @Override
  public String[] getLocations() {
    return location.isEmpty() ? new String[0] : new String[] {location};
  }

  @Override
  public void write(DataOutput out) throws IOException {
    super.write(out);
    out.writeUTF(dataset);
    out.writeLong(snapshot);
    Bytes.writeByteArray(out, startRow);
    Bytes.writeByteArray(out, stopRow);
    out.writeUTF(location);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    super.readFields(in);
    dataset = in.readUTF();
    snapshot = in.readLong();
    startRow = Bytes.readByteArray(in);
    stopRow = Bytes.readByteArray(in);
    location = in.readUTF();
  }

  @Override
  public String toString() {
    return "SnapshotSplit{" + dataset + " @ " + snapshot + ", [" + Bytes.toStringBinary(startRow) + ", "
        + Bytes.toStringBinary(stopRow) + "), " + location + "}";
  }
}
