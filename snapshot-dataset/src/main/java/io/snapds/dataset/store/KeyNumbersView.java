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
   */
  long nextKeyNumber();
}
