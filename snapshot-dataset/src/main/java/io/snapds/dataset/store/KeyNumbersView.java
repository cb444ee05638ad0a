package io.snapds.dataset.store;

/** Key numbers ({@link io.snapds.dataset.SnapshotKeys}): the pointer row's {@code kno} counter. */
public interface KeyNumbersView {
  /**
   * The last key number given to a snapshot, 0 if none: every snapshot numbered so far has a
   * number at or below it.
   */
  long lastKeyNumber();

  /**
   * Gives the next key number, written with this transaction's commit (on the pointer row, which
   * every commit writes, so two commits never give the same number and a number is never given
   * again, even when its snapshot is aborted and cleaned).
   *
   * @throws io.snapds.dataset.DatasetNotFoundException if the dataset is being dropped: its drop
   *     keeps the last number given, so none may be given after the drop began
   */
  long nextKeyNumber();

  /**
   * Makes the next key number given above {@code lastGiven}, when the counter is not already
   * there: a dataset created again after a drop continues above every number of the dropped
   * incarnations ({@link DroppedKeyNumbers}).
   */
  void continueKeyNumbersAbove(long lastGiven);
}
