package io.snapds.dataset;

/**
 * Hears how far a {@link SnapshotDataset#cleanup(CleanupListener)} got, snapshot by snapshot. A
 * snapshot's range is deleted in pieces, one per data-table region it spans (less the parts an
 * earlier, interrupted cleanup recorded done); the listener hears each piece as it finishes.
 *
 * <p>Calls come from the thread that called {@code cleanup}, one at a time, in order. A listener
 * that throws stops the cleanup: the pieces finished so far stay recorded, the next cleanup
 * resumes after them, and the exception reaches the caller of {@code cleanup}.
 */
@FunctionalInterface
public interface CleanupListener {
  /** Hears nothing. */
  CleanupListener NONE = (snapshot, rows, piecesDone, pieces) -> { };

  /**
   * Before the first delete of {@code snapshot}: how many pieces this run deletes, and how many
   * key ranges earlier runs recorded done (0 for a cleanup that starts afresh).
   */
  default void started(SnapshotId snapshot, int pieces, int rangesDoneBefore) {
  }

  /**
   * After each piece of {@code snapshot}: the rows this run deleted in it so far, and the pieces
   * done of those this run deletes.
   */
  void progress(SnapshotId snapshot, long rowsDeleted, int piecesDone, int pieces);
}
