package io.snapds.dataset;

import java.io.Closeable;
import java.util.Iterator;
import java.util.function.Consumer;

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

  /**
   * Reports how far the diff has got: calls {@code listener} with the counts so far after every
   * {@code everyRows} rows read from either snapshot (unchanged rows included, so a diff that finds
   * nothing still reports), and once more with the final counts when the rows run out. The rows read
   * so far are {@code added + removed + 2 * (changed + unchanged)}, give or take the row being
   * compared. The listener runs on the thread that iterates; call this before iterating.
   *
   * @return this scanner
   * @throws IllegalArgumentException if {@code everyRows} is not positive
   */
  DiffScanner onProgress(long everyRows, Consumer<DiffSummary> listener);

  /** Releases both pins and scanners; idempotent. */
  @Override
  void close();
}
