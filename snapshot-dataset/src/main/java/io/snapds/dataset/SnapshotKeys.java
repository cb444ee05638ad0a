package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.store.RowKeys;
import java.util.Arrays;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where one snapshot's rows are in the data table: every row key is the snapshot's <em>prefix</em>
 * followed by the user's key, so the snapshot is the one key range {@code [prefix, stop)}.
 *
 * <p>Two kinds of prefix, told apart by the snapshot's record ({@link SnapshotInfo#keys()}):
 * <ul>
 *   <li><b>numbered</b> (metadata format 3): one length byte {@code n} (1 to 7), then the
 *       snapshot's dataset-local key number in {@code n} big-endian bytes without leading zeros.
 *       Two bytes for the first 255 snapshots of a dataset, three up to 65,535, four up to
 *       16.7 million. Prefix-free (no prefix starts another) and ordered like the numbers, so
 *       {@code stop} is the prefix's byte increment.</li>
 *   <li><b>legacy</b> (format 2): the 8-byte big-endian snapshot id. A Tephra write pointer
 *       (milliseconds times 10<sup>6</sup>) starts with a byte of {@code 0x14} or more for any
 *       time after 2016, so a legacy range never overlaps a numbered one (first byte
 *       {@code 0x01}-{@code 0x07}), and a dataset upgraded from format 2 holds both.</li>
 * </ul>
 * Immutable.
 */
public final class SnapshotKeys {
  /** The largest key number: seven bytes, so that a prefix is never longer than a legacy one. */
  public static final long MAX_NUMBER = (1L << 56) - 1;
  /** The first row key above every numbered prefix: the numbered zone is {@code [0x01, 0x08)}. */
  private static final byte[] NUMBERED_END = {0x08};

  private final SnapshotId id;
  private final long number;
  private final byte[] prefix;
  private final byte[] stop;

  private SnapshotKeys(SnapshotId id, long number, byte[] prefix) {
    this.id = checkNotNull(id, "snapshot id must not be null");
    this.number = number;
    this.prefix = prefix;
    this.stop = Bytes.unsignedCopyAndIncrement(prefix);
  }

  /**
   * The 8-byte id prefix of a snapshot without a key number. Its range stays clear of the
   * numbered ones because the id is a Tephra write pointer of a time after 1990 (first byte above
   * {@code 0x07}); the small ids of unit tests sort below them, which is as good.
   */
  public static SnapshotKeys legacy(SnapshotId id) {
    return new SnapshotKeys(id, 0, checkNotNull(id, "snapshot id must not be null").toBytes());
  }

  /** @throws IllegalArgumentException if {@code number} is not between 1 and {@link #MAX_NUMBER} */
  public static SnapshotKeys numbered(SnapshotId id, long number) {
    checkArgument(number > 0 && number <= MAX_NUMBER, "key number must be between 1 and %s, got %s", MAX_NUMBER,
        number);
    int length = (Long.SIZE - Long.numberOfLeadingZeros(number) + 7) / 8;
    byte[] prefix = new byte[1 + length];
    prefix[0] = (byte) length;
    long rest = number;
    for (int i = length; i >= 1; i--, rest >>>= 8) {
      prefix[i] = (byte) rest;
    }
    return new SnapshotKeys(id, number, prefix);
  }

  /**
   * The keys of {@code id} given its prefix as {@link #prefix()} gave it (an engine's split carries
   * both).
   *
   * @throws IllegalArgumentException if the prefix is neither {@code id}'s 8 bytes nor a valid
   *     numbered prefix
   */
  public static SnapshotKeys of(SnapshotId id, byte[] prefix) {
    checkNotNull(prefix, "key prefix must not be null");
    if (Arrays.equals(prefix, id.toBytes())) {
      return legacy(id);
    }
    int length = prefix.length - 1;
    checkArgument(length >= 1 && length <= 7 && prefix[0] == length && prefix[1] != 0,
        "invalid key prefix %s for snapshot %s", Bytes.toStringBinary(prefix), id);
    long n = 0;
    for (int i = 1; i < prefix.length; i++) {
      n = (n << 8) | (prefix[i] & 0xff);
    }
    return numbered(id, n);
  }

  /**
   * The row key that begins the part of the key space where snapshots numbered above
   * {@code lastNumber} will be written: no row of a snapshot that exists now lies at or above it
   * up to {@link #numberedEnd()}.
   */
  public static byte[] numberedStart(long lastNumber) {
    return lastNumber >= MAX_NUMBER ? NUMBERED_END.clone() : numbered(SnapshotId.of(1), lastNumber + 1).prefix;
  }

  /** The first row key above every numbered prefix. */
  public static byte[] numberedEnd() {
    return NUMBERED_END.clone();
  }

  public SnapshotId id() {
    return id;
  }

  /** The key number, 0 for a legacy (8-byte id) prefix. */
  public long number() {
    return number;
  }

  public byte[] prefix() {
    return prefix.clone();
  }

  public int prefixLength() {
    return prefix.length;
  }

  /** First row key of the snapshot's range (inclusive). */
  public byte[] start() {
    return prefix.clone();
  }

  /** First row key after the snapshot's range (exclusive). */
  public byte[] stop() {
    return stop.clone();
  }

  /**
   * The data table row key of {@code userKey} in this snapshot.
   *
   * @throws IllegalArgumentException if the key is null, empty or too long
   */
  public byte[] rowKey(byte[] userKey) {
    RowKeys.checkUserKey(userKey);
    return Bytes.add(prefix, userKey);
  }

  /** {@code userKey} after the prefix, unchecked: for range bounds, which may be any bytes. */
  public byte[] bound(byte[] userKey) {
    return Bytes.add(prefix, userKey);
  }

  /** The user's key of a row key of this snapshot. */
  public byte[] userKey(byte[] rowKey) {
    return Arrays.copyOfRange(rowKey, prefix.length, rowKey.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SnapshotKeys other && id.equals(other.id) && Arrays.equals(prefix, other.prefix);
  }

  @Override
  public int hashCode() {
    return id.hashCode() * 31 + Arrays.hashCode(prefix);
  }

  @Override
  public String toString() {
    return id + (number == 0 ? "" : " (key number " + number + ")");
  }
}
