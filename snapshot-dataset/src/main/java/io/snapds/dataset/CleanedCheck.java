package io.snapds.dataset;

import io.snapds.dataset.lock.LockTable;

/**
 * The check every read makes after it has read: did cleanup begin deleting the snapshot's rows
 * (the mark it writes before its first delete, {@link LockTable#markCleaning})? If so, rows the
 * read did not find may have been deleted under it, and it fails instead of returning a short
 * result. One single-row read of the lock table per scan, and per get or multi-get that did not
 * find every row (a row found is whole: see {@link FixedSnapshotReader#get(byte[], RowScan)}).
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
  private final DatasetId dataset;
  private final SnapshotId snapshot;
  private final String reason;

  CleanedCheck(LockTable locks, DatasetId dataset, SnapshotId snapshot, String reason) {
    this.locks = locks;
    this.dataset = dataset;
    this.snapshot = snapshot;
    this.reason = reason;
  }

  /** @throws SnapshotCleanedException if cleanup has begun deleting the snapshot */
  void verify() {
    if (locks.isCleaning(snapshot)) {
      throw new SnapshotCleanedException(dataset, snapshot, reason);
    }
  }
}
