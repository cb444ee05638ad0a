package io.snapds.dataset.store;

import io.snapds.dataset.DatasetNotFoundException;
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
    if (p.dropped != 0) {
      throw new DatasetNotFoundException(rows.dataset(), "it is being dropped (event " + p.dropped
          + "); no snapshot begins any more");
    }
    if (p.keyNumbers >= SnapshotKeys.MAX_NUMBER) {
      throw new IllegalStateException("dataset " + rows.dataset() + " has given every key number up to "
          + p.keyNumbers + ": no snapshot can begin");
    }
    p.keyNumbers++;
    rows.markChanged();
    return p.keyNumbers;
  }

  void continueAbove(long lastGiven) {
    PointerRow.Values p = pointer.values();
    if (lastGiven > p.keyNumbers) {
      p.keyNumbers = lastGiven;
      rows.markChanged();
    }
  }
}
