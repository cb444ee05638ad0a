package io.snapds.dataset;

/**
 * The thread running {@link SnapshotDataset#cleanup()} was interrupted while it deleted a
 * snapshot's rows. The pieces finished are recorded; run cleanup again to delete the rest (it
 * resumes after them). The thread's interrupt flag is set again.
 */
public final class CleanupInterruptedException extends SnapshotDatasetException {
  private final SnapshotId snapshot;

  CleanupInterruptedException(SnapshotId snapshot) {
    super("cleanup of snapshot " + snapshot + " was interrupted; its finished pieces are recorded and the next "
        + "cleanup resumes after them");
    this.snapshot = snapshot;
  }

  /** The snapshot whose cleanup was interrupted. */
  public SnapshotId snapshot() {
    return snapshot;
  }
}
