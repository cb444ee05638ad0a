package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.FENCE;
import static io.snapds.dataset.store.MetadataLayout.key;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Fences: rows {@code f} + lockName, column {@code token} the highest fencing token that began a
 * snapshot under that lock, so that a writer holding an older token is refused.
 */
final class FenceRows {
  private static final byte[] TOKEN = Bytes.toBytes("token");

  private final ViewRows rows;
  private final Map<String, Long> fences = new HashMap<>();

  FenceRows(ViewRows rows) {
    this.rows = rows;
  }

  long fence(String lockName) {
    return fences.computeIfAbsent(lockName, l -> {
      byte[] row = key(FENCE, l);
      NavigableMap<byte[], byte[]> cols = rows.get(row);
      return cols.isEmpty() ? 0L : rows.columns(row, cols).longValue(TOKEN);
    });
  }

  void putFence(String lockName, long token) {
    if (fence(lockName) != token) {
      rows.write(key(FENCE, lockName), TOKEN, Bytes.toBytes(token));
      fences.put(lockName, token);
    }
  }

  /** Deletes the row for good, with a purge later: no writer of the lock is left to fence. */
  void drop(String lockName) {
    byte[] row = key(FENCE, lockName);
    rows.deleteRow(row, rows.get(row));
    fences.remove(lockName);
  }
}
