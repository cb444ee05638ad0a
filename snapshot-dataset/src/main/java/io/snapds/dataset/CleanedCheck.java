package io.snapds.dataset;

import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.RawMetadata;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The check every read makes after it has read: did cleanup begin deleting the snapshot's rows
 * (the mark it writes before its first delete, {@link LockTable#markCleaning})? If so, rows the
 * read did not find may have been deleted under it, and it fails instead of returning a short
 * result. One round trip to the lock table (its cleaning row and the legacy row of the snapshot,
 * in one batch) per scan, and per get or multi-get that did not find every row (a row found is whole: see {@link FixedSnapshotReader#get(byte[], RowScan)}).
 *
 * <p>A mark goes once its snapshot's record has passed the history horizon; the lock table's
 * watermark then covers it. A snapshot at or below the watermark without a mark (an old snapshot a
 * tag or a key keeps, or one whose mark went) is asked of its record, raw: one more get, for those
 * snapshots only. So a reader of any snapshot, however old, learns that it lost rows.
 */
final class CleanedCheck {
  /** Why a reader in a Tephra transaction can lose its snapshot, and what to do instead. */
  static final String IN_TRANSACTION = "the reading transaction outlived its timeout (Tephra invalidated it,"
      + " so cleanup no longer waited for it); start it with a longer timeout (TransactionContext.start(seconds))"
      + " or hold a reader pin (SnapshotDataset.pin) while reading for long";
  /** Why a reader outside any transaction can lose its snapshot, and what to do instead. */
  static final String NO_TRANSACTION = "it was read outside a transaction, so nothing kept its rows once it"
      + " expired; read it in a Tephra transaction or hold a reader pin (SnapshotDataset.pin) while reading";

  private final LockTable locks;
  private final Connection connection;
  private final DatasetId dataset;
  private final SnapshotId snapshot;
  private final String reason;

  CleanedCheck(LockTable locks, Connection connection, DatasetId dataset, SnapshotId snapshot, String reason) {
    this.locks = locks;
    this.connection = connection;
    this.dataset = dataset;
    this.snapshot = snapshot;
    this.reason = reason;
  }

  /** @throws SnapshotCleanedException if cleanup has begun deleting the snapshot */
  void verify() {
    if (cleaned(locks, connection, dataset, snapshot)) {
      throw new SnapshotCleanedException(dataset, snapshot, reason);
    }
  }

  /** Whether cleanup began deleting {@code snapshot}'s rows: one round trip, two for a snapshot below the watermark. */
  static boolean cleaned(LockTable locks, Connection connection, DatasetId dataset, SnapshotId snapshot) {
    LockTable.CleaningState state = locks.cleaningState(snapshot);
    return state.marked()
        || (state.coveredByWatermark(snapshot) && RawMetadata.record(connection, dataset, snapshot).goneOrCleaned());
  }
}
