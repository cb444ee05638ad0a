package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import org.apache.hadoop.hbase.util.Bytes;

/**
 * The id of one snapshot: the Tephra write pointer of the transaction that built it. Ids grow
 * with time, so a newer snapshot always has a larger id. Where its rows are in the data table is
 * {@link SnapshotKeys} (a short key number since metadata format 3, the 8-byte id before).
 */
public final class SnapshotId implements Comparable<SnapshotId> {
  public static final int BYTES = Long.BYTES;

  private final long value;

  private SnapshotId(long value) {
    this.value = value;
  }

  /** @throws IllegalArgumentException if {@code value <= 0} */
  public static SnapshotId of(long value) {
    checkArgument(value > 0, "snapshot id must be > 0, got %s", value);
    return new SnapshotId(value);
  }

  /** Parses the decimal form that {@link #toString()} prints. */
  public static SnapshotId parse(String text) {
    try {
      return of(Long.parseLong(text.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid snapshot id '" + text + "': expected a positive number", e);
    }
  }

  public static SnapshotId fromBytes(byte[] bytes) {
    checkArgument(bytes != null && bytes.length == BYTES,
        "a snapshot id is %s bytes, got %s", BYTES, bytes == null ? null : bytes.length);
    return of(Bytes.toLong(bytes));
  }

  public long value() {
    return value;
  }

  public byte[] toBytes() {
    return Bytes.toBytes(value);
  }

  @Override
  public int compareTo(SnapshotId o) {
    return Long.compare(value, o.value);
  }

  public boolean isAfter(SnapshotId other) {
    return value > other.value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SnapshotId other && value == other.value;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(value);
  }

  @Override
  public String toString() {
    return Long.toString(value);
  }
}
