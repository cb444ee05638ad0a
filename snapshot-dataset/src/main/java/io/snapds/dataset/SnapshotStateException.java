package io.snapds.dataset;

/**
 * The snapshot exists, but its state refuses the operation asked of it: publishing a stage that was
 * discarded, or published already with another group (or alone); publishing a snapshot that was
 * committed directly, never staged; discarding a snapshot that is not STAGED. Nothing was changed.
 * Asking again with the same snapshot will not help; the message says what will (a rollback, an
 * expire, another stage).
 *
 * <p>A {@link SnapshotNotAvailableException}, as these refusals were before they had a type of
 * their own, so that code catching that still catches them.
 */
public class SnapshotStateException extends SnapshotNotAvailableException {
  public SnapshotStateException(DatasetId dataset, SnapshotId snapshot, SnapshotState state, String message) {
    super(dataset, snapshot, state, message);
  }
}
