package io.snapds.dataset;

/**
 * How two snapshots differ, counted ({@link DiffScanner#summary()}): rows added, removed, changed
 * (on the diff's columns) and unchanged, within the diff's key range.
 *
 * @param from the older snapshot ("before")
 * @param to the newer snapshot ("after")
 */
public record DiffSummary(SnapshotId from, SnapshotId to, long added, long removed, long changed, long unchanged) {
  /** Rows that differ. */
  public long changes() {
    return added + removed + changed;
  }

  /** Whether the two snapshots hold the same rows (within the diff's range and columns). */
  public boolean isEmpty() {
    return changes() == 0;
  }

  @Override
  public String toString() {
    return from + ".." + to + ": " + added + " added, " + removed + " removed, " + changed + " changed, " + unchanged
        + " unchanged";
  }
}
