package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.CLEANUP_PROGRESS;
import static io.snapds.dataset.store.MetadataLayout.PRESENT;
import static io.snapds.dataset.store.MetadataLayout.key;
import static io.snapds.dataset.store.MetadataLayout.kindStart;
import static io.snapds.dataset.store.MetadataLayout.kindStop;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.SnapshotId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Cleanup progress: rows {@code q} + id(8), column {@code v} the encoded {@link CleanupProgress}
 * of a snapshot whose deletes were interrupted (#12); removed when the snapshot is recorded
 * cleaned, and by the horizon once its record is gone.
 */
final class CleanupProgressRows {
  private static final byte[] PROGRESS = Bytes.toBytes("v");

  private final ViewRows rows;
  private final Map<SnapshotId, CleanupProgress> progress = new HashMap<>();

  CleanupProgressRows(ViewRows rows) {
    this.rows = rows;
  }

  CleanupProgress cleanupProgress(SnapshotId id) {
    return progress.computeIfAbsent(id, i -> decode(key(CLEANUP_PROGRESS, i), rows.get(key(CLEANUP_PROGRESS, i))));
  }

  Map<SnapshotId, CleanupProgress> cleanupProgress(Collection<SnapshotId> ids) {
    rows.fetchMissing(ids, progress, CLEANUP_PROGRESS, this::decode);
    Map<SnapshotId, CleanupProgress> out = new HashMap<>();
    ids.forEach(id -> out.put(id, progress.get(id)));
    return out;
  }

  void putCleanupProgress(SnapshotId id, CleanupProgress p) {
    if (cleanupProgress(id).equals(p)) {
      return;
    }
    byte[] row = key(CLEANUP_PROGRESS, id);
    if (p.equals(CleanupProgress.NONE)) {
      NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      cols.put(PROGRESS, PRESENT);
      rows.deleteRow(row, cols); // and purged physically later, with its versions
    } else {
      rows.write(row, PROGRESS, p.encode());
    }
    progress.put(id, p);
  }

  /** The snapshots that have a progress row, oldest first, at most {@code limit}: one scan. */
  List<SnapshotId> recorded(int limit) {
    List<SnapshotId> out = new ArrayList<>();
    for (MetaRows.Row r : rows.scan(kindStart(CLEANUP_PROGRESS), kindStop(CLEANUP_PROGRESS), false, limit)) {
      out.add(SnapshotId.of(Bytes.toLong(r.key(), 1)));
    }
    return out;
  }

  private CleanupProgress decode(byte[] row, NavigableMap<byte[], byte[]> cols) {
    byte[] value = cols.get(PROGRESS);
    if (value == null) {
      return CleanupProgress.NONE;
    }
    try {
      return CleanupProgress.decode(value);
    } catch (IllegalArgumentException e) {
      throw new CorruptMetadataException(rows.dataset(), Bytes.toStringBinary(row), e.getMessage());
    }
  }
}
