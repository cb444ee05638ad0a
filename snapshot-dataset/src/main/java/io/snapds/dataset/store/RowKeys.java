package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.SnapshotId;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The user's part of a data table row key: its checks. The key's prefix, which says which snapshot
 * the row belongs to, is {@link io.snapds.dataset.SnapshotKeys}.
 */
public final class RowKeys {
  /** HBase's row key limit less the longest snapshot prefix (8 bytes, numbered or not). */
  public static final int MAX_USER_KEY_LENGTH = HConstants.MAX_ROW_LENGTH - SnapshotId.BYTES;

  private RowKeys() {}

  /** @throws IllegalArgumentException if the key is null, empty or too long */
  public static void checkUserKey(byte[] userKey) {
    checkArgument(userKey != null, "row key must not be null");
    checkArgument(userKey.length > 0, "row key must not be empty");
    if (userKey.length > MAX_USER_KEY_LENGTH) { // the message only on failure: this runs per row written or read
      throw new IllegalArgumentException(String.format(
          "row key of %s bytes is longer than the limit of %s bytes (key starts with %s)",
          userKey.length, MAX_USER_KEY_LENGTH, Bytes.toStringBinary(userKey, 0, Math.min(32, userKey.length))));
    }
  }
}
