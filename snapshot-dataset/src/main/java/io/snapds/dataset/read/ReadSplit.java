package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotKeys;
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
 * snapshot that was pinned, and the host that serves them (a location hint). The snapshot id and
 * its key prefix travel in every split, so every task and every retry reads the same snapshot. A plain value:
 * engine adapters hold one as the delegate of their own split type and send it with
 * {@link #write}/{@link #read} (or Java serialization). Immutable.
 */
public final class ReadSplit implements Serializable {
  private static final long serialVersionUID = 2L;
  /** The first byte of {@link #write}'s form: 2 since splits carry the key prefix. */
  private static final int WIRE_VERSION = 2;

  private final String dataset;
  private final long snapshot;
  private final byte[] prefix;
  private final byte[] startRow;
  private final byte[] stopRow;
  private final String host;

  /**
   * @param host the region server's host, or null when unknown
   */
  public ReadSplit(DatasetId dataset, SnapshotKeys snapshot, byte[] startRow, byte[] stopRow, String host) {
    this(checkNotNull(dataset, "dataset must not be null").toString(),
        checkNotNull(snapshot, "snapshot must not be null").id().value(), snapshot.prefix(), startRow, stopRow, host);
  }

  private ReadSplit(String dataset, long snapshot, byte[] prefix, byte[] startRow, byte[] stopRow, String host) {
    this.dataset = dataset;
    this.snapshot = snapshot;
    this.prefix = checkNotNull(prefix, "key prefix must not be null").clone();
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

  /** Where the snapshot's rows are (the split's rows are a part of that range). */
  public SnapshotKeys keys() {
    return SnapshotKeys.of(snapshotId(), prefix);
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
    out.writeByte(WIRE_VERSION);
    WritableUtils.writeString(out, dataset);
    out.writeLong(snapshot);
    Bytes.writeByteArray(out, prefix);
    Bytes.writeByteArray(out, startRow);
    Bytes.writeByteArray(out, stopRow);
    WritableUtils.writeString(out, host);
  }

  /** The split {@link #write} wrote. */
  public static ReadSplit read(DataInput in) throws IOException {
    int version = in.readByte();
    if (version != WIRE_VERSION) {
      throw new IOException("a split of wire version " + version + ", this library reads " + WIRE_VERSION
          + ": the job's client and its tasks run different snapds versions");
    }
    String dataset = WritableUtils.readString(in);
    long snapshot = in.readLong();
    byte[] prefix = Bytes.readByteArray(in);
    byte[] startRow = Bytes.readByteArray(in);
    byte[] stopRow = Bytes.readByteArray(in);
    return new ReadSplit(dataset, snapshot, prefix, startRow, stopRow, WritableUtils.readString(in));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReadSplit other && dataset.equals(other.dataset) && snapshot == other.snapshot
        && Arrays.equals(prefix, other.prefix) && Arrays.equals(startRow, other.startRow) && Arrays.equals(stopRow, other.stopRow)
        && host.equals(other.host);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dataset, snapshot, Arrays.hashCode(prefix), Arrays.hashCode(startRow), Arrays.hashCode(stopRow), host);
  }

  @Override
  public String toString() {
    return dataset + " @ " + snapshot + " (prefix " + Bytes.toStringBinary(prefix) + ") [" + Bytes.toStringBinary(startRow) + ", "
        + Bytes.toStringBinary(stopRow) + ") on " + (host.isEmpty() ? "?" : host);
  }
}
