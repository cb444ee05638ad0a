package io.snapds.dataset.store;

import io.snapds.dataset.SnapshotKeys;

/**
 * Key numbers ({@link SnapshotKeys}, format 3): the pointer row's {@code kno}, the last number
 * given to a snapshot. Given with the commit of the pointer row, which every commit writes, so two
 * commits never give the same number and a number is never given again.
 */
final class KeyNumbers {
  private final ViewRows rows;
  private final PointerRow pointer;

  KeyNumbers(ViewRows rows, PointerRow pointer) {
    this.rows = rows;
    this.pointer = pointer;
  }

  long lastKeyNumber() {
    return pointer.values().keyNumbers;
  }

  long nextKeyNumber() {
    PointerRow.Values p = pointer.values();
    if (p.keyNumbers >= SnapshotKeys.MAX_NUMBER) {
      throw new IllegalStateException("dataset " + rows.dataset() + " has given every key number up to "
          + p.keyNumbers + ": no snapshot can begin");
    }
    p.keyNumbers++;
    rows.markChanged();
    return p.keyNumbers;
  }
}
