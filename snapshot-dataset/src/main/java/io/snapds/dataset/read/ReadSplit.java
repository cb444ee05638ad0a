package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.WritableUtils;

/**
 * One region's part of one snapshot: the data table rows {@code [startRow, stopRow)} of the
 * snapshot that was pinned, and the host that serves them (a location hint). The snapshot id
 * travels in every split, so every task and every retry reads the same snapshot. A plain value:
 * engine adapters hold one as the delegate of their own split type and send it with
 * {@link #write}/{@link #read} (or Java serialization). Immutable.
 */
public final class ReadSplit implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String dataset;
  private final long snapshot;
  private final byte[] startRow;
  private final byte[] stopRow;
  private final String host;

  /**
   * @param host the region server's host, or null when unknown
   */
  public ReadSplit(DatasetId dataset, SnapshotId snapshot, byte[] startRow, byte[] stopRow, String host) {
    this(checkNotNull(dataset, "dataset must not be null").toString(),
        checkNotNull(snapshot, "snapshot must not be null").value(), startRow, stopRow, host);
  }

  private ReadSplit(String dataset, long snapshot, byte[] startRow, byte[] stopRow, String host) {
    this.dataset = dataset;
    this.snapshot = snapshot;
    this.startRow = checkNotNull(startRow, "start row must not be null").clone();
    this.stopRow = checkNotNull(stopRow, "stop row must not be null").clone();
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

  /** Where the split's rows are served: the region server's host, or none when unknown. */
  public String[] locations() {
    return host.isEmpty() ? new String[0] : new String[] {host};
  }

  public void write(DataOutput out) throws IOException {
    WritableUtils.writeString(out, dataset);
    out.writeLong(snapshot);
    Bytes.writeByteArray(out, startRow);
    Bytes.writeByteArray(out, stopRow);
    WritableUtils.writeString(out, host);
  }

  /** The split {@link #write} wrote. */
  public static ReadSplit read(DataInput in) throws IOException {
    String dataset = WritableUtils.readString(in);
    long snapshot = in.readLong();
    byte[] startRow = Bytes.readByteArray(in);
    byte[] stopRow = Bytes.readByteArray(in);
    return new ReadSplit(dataset, snapshot, startRow, stopRow, WritableUtils.readString(in));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReadSplit other && dataset.equals(other.dataset) && snapshot == other.snapshot
        && Arrays.equals(startRow, other.startRow) && Arrays.equals(stopRow, other.stopRow)
        && host.equals(other.host);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dataset, snapshot, Arrays.hashCode(startRow), Arrays.hashCode(stopRow), host);
  }

  @Override
  public String toString() {
    return dataset + " @ " + snapshot + " [" + Bytes.toStringBinary(startRow) + ", "
        + Bytes.toStringBinary(stopRow) + ") on " + (host.isEmpty() ? "?" : host);
  }
}
