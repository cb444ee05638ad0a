package io.snapds.dataset;

import java.io.Closeable;
import java.util.Iterator;

/**
 * The rows that differ between two snapshots, in key order ({@link SnapshotDataset#diff}). Both
 * snapshots stay pinned until the scanner is closed or its changes run out. Iterate it once, or
 * call {@link #summary()}; close it when done.
 *
 * <p>Like a scan, a diff checks when each side's rows run out (and on close) that cleanup has not
 * begun deleting that snapshot, and fails with {@link SnapshotCleanedException} if it has (which
 * only happens when the diff's pins lapsed): changes already returned must then not be used.
 */
public interface DiffScanner extends Iterable<RowChange>, Closeable {
  /** The older snapshot, "before". */
  SnapshotId from();

  /** The newer snapshot, "after". */
  SnapshotId to();

  /** The changes not yet returned, in key order; one iterator per scanner. */
  @Override
  Iterator<RowChange> iterator();

  /**
   * Reads the rest of the diff without building its changes and counts it, rows already returned
   * included; then closes the scanner.
   */
  DiffSummary summary();

  /** Releases both pins and scanners; idempotent. */
  @Override
  void close();
}
