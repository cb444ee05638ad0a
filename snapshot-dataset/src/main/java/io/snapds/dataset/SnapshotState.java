package io.snapds.dataset;

/** Where a snapshot is in its life. */
public enum SnapshotState {
  /** A writer is adding rows; nobody reads it. */
  BUILDING,
  /** Published and retained: readable by id, and current if it is the newest published. */
  COMMITTED,
  /** Past retention (or expired by hand): invisible to new readers; rows removed by cleanup. */
  EXPIRED,
  /** The writer aborted, died or was fenced: never visible; rows removed by cleanup. */
  ABORTED;

  public boolean isReadable() {
    return this == COMMITTED;
  }
}
