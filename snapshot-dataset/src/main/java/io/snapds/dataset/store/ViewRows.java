package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.MARK;
import static io.snapds.dataset.store.MetadataLayout.PRESENT;
import static io.snapds.dataset.store.MetadataLayout.PURGE;
import static io.snapds.dataset.store.MetadataLayout.key;
import static io.snapds.dataset.store.MetadataLayout.kindStart;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.function.BiFunction;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.Transaction;

/**
 * What the row groups of one {@link LayoutView} share: the {@link MetaRows} of its transaction,
 * whether anything was recorded, and the delete of a whole row, which is transactional and queues
 * the row for a physical purge (row {@code z} + writePointer(8) + row) once every transaction sees
 * the delete.
 */
final class ViewRows {
  private final DatasetId dataset;
  private final MetaRows rows;
  private boolean changed;

  ViewRows(DatasetId dataset, MetaRows rows) {
    this.dataset = dataset;
    this.rows = rows;
  }

  DatasetId dataset() {
    return dataset;
  }

  Transaction transaction() {
    return rows.transaction();
  }

  NavigableMap<byte[], byte[]> get(byte[] row) {
    return rows.get(row);
  }

  List<MetaRows.Row> scan(byte[] start, byte[] stop, boolean reverse, int limit) {
    return rows.scan(start, stop, reverse, limit);
  }

  /** The columns of {@code row}, decoded with errors that name the row. */
  MetadataCodec.Columns columns(byte[] row, NavigableMap<byte[], byte[]> columns) {
    return new MetadataCodec.Columns(dataset, row, columns);
  }

  /**
   * Reads the rows {@code kind} + id of those of {@code ids} that {@code cache} lacks, in one call
   * however many, and caches what {@code decode} makes of each.
   */
  <T> void fetchMissing(Iterable<SnapshotId> ids, Map<SnapshotId, T> cache, byte kind,
      BiFunction<byte[], NavigableMap<byte[], byte[]>, T> decode) {
    List<SnapshotId> missing = new ArrayList<>();
    for (SnapshotId id : ids) {
      if (!cache.containsKey(id)) {
        missing.add(id);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    List<byte[]> keys = new ArrayList<>(missing.size());
    missing.forEach(id -> keys.add(key(kind, id)));
    List<NavigableMap<byte[], byte[]>> got = rows.getAll(keys);
    for (int i = 0; i < missing.size(); i++) {
      cache.put(missing.get(i), decode.apply(keys.get(i), got.get(i)));
    }
  }

  /** Writes a column with this transaction's commit; a null {@code value} deletes it. */
  void write(byte[] row, byte[] q, byte[] value) {
    if (value == null) {
      rows.delete(row, q);
    } else {
      rows.put(row, q, value);
    }
    changed = true;
  }

  /** Deletes a row transactionally and queues it for a physical purge once all see the delete. */
  void deleteRow(byte[] row, NavigableMap<byte[], byte[]> columns) {
    if (columns.isEmpty()) {
      return;
    }
    for (byte[] q : columns.keySet()) {
      write(row, q, null);
    }
    write(purgeKey(rows.transaction().getWritePointer(), row), MARK, PRESENT);
  }

  /** Physically removes rows whose transactional delete every transaction sees by now. */
  int purgeDeleted() {
    long bound = rows.pruneBound();
    if (bound < 0) {
      return 0;
    }
    byte[] stop = purgeKey(bound + 1, new byte[0]);
    int purged = 0;
    for (MetaRows.Row r : rows.scan(kindStart(PURGE), stop, false, 10_000)) {
      long deletedBy = Bytes.toLong(r.key(), 1);
      rows.purge(Bytes.copy(r.key(), 9, r.key().length - 9), deletedBy);
      rows.purge(r.key(), deletedBy);
      purged++;
    }
    changed |= purged > 0; // commit, so the purges are sent
    return purged;
  }

  private static byte[] purgeKey(long writePointer, byte[] row) {
    return Bytes.add(new byte[] {PURGE}, Bytes.toBytes(writePointer), row);
  }

  /** Makes the view commit although no column was written yet (its flush writes some). */
  void markChanged() {
    changed = true;
  }

  boolean changed() {
    return changed;
  }
}
