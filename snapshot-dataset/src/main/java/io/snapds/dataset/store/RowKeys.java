package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.SnapshotId;
import java.util.Arrays;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The data table's row key: the 8-byte big-endian snapshot id, then the user's key. One snapshot
 * is one contiguous key range, {@code [id, id + 1)}.
 */
public final class RowKeys {
  /** HBase's row key limit less the snapshot prefix. */
  public static final int MAX_USER_KEY_LENGTH = HConstants.MAX_ROW_LENGTH - SnapshotId.BYTES;

  private RowKeys() {}

  /** @throws IllegalArgumentException if the key is null, empty or too long */
  public static byte[] rowKey(SnapshotId snapshot, byte[] userKey) {
    checkUserKey(userKey);
    return Bytes.add(snapshot.toBytes(), userKey);
  }

  public static void checkUserKey(byte[] userKey) {
    checkArgument(userKey != null, "row key must not be null");
    checkArgument(userKey.length > 0, "row key must not be empty");
    if (userKey.length > MAX_USER_KEY_LENGTH) { // the message only on failure: this runs per row written or read
      throw new IllegalArgumentException(String.format(
          "row key of %s bytes is longer than the limit of %s bytes (key starts with %s)",
          userKey.length, MAX_USER_KEY_LENGTH, Bytes.toStringBinary(userKey, 0, Math.min(32, userKey.length))));
    }
  }

  public static byte[] userKey(byte[] rowKey) {
    return Arrays.copyOfRange(rowKey, SnapshotId.BYTES, rowKey.length);
  }

  public static SnapshotId snapshotOf(byte[] rowKey) {
    return SnapshotId.of(Bytes.toLong(rowKey, 0));
  }

  /** First row key of the snapshot's range (inclusive). */
  public static byte[] start(SnapshotId snapshot) {
    return snapshot.toBytes();
  }

  /** First row key after the snapshot's range (exclusive). */
  public static byte[] stop(SnapshotId snapshot) {
    return Bytes.toBytes(snapshot.value() + 1);
  }
}
