package io.snapds.dataset;

/** Where a snapshot is in its life. */
public enum SnapshotState {
  /** A writer is adding rows; nobody reads it. */
  BUILDING,
  /**
   * Complete and immutable, waiting for an audit ({@link SnapshotWriter#stage()}): readable by id,
   * never current and invisible to time travel by time until {@link SnapshotDataset#publish}
   * makes it COMMITTED; {@link SnapshotDataset#discard} (or {@code staged.max.age}) expires it.
   */
  STAGED,
  /** Published and retained: readable by id, and current if it is the newest published. */
  COMMITTED,
  /** Past retention (or expired by hand): invisible to new readers; rows removed by cleanup. */
  EXPIRED,
  /** The writer aborted, died or was fenced: never visible; rows removed by cleanup. */
  ABORTED;

  /** Whether a new reader may read it by id: COMMITTED or STAGED. */
  public boolean isReadable() {
    return this == COMMITTED || this == STAGED;
  }
}
