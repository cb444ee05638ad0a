package io.snapds.dataset;

/**
 * Publishing would move the current pointer backwards: a snapshot newer than this one (a larger
 * id) is current already. This snapshot is aborted; rebuild from the newer data to publish.
 */
public class SupersededSnapshotException extends SnapshotDatasetException {
  private final SnapshotId snapshot;
  private final SnapshotId current;

  public SupersededSnapshotException(DatasetId dataset, SnapshotId snapshot, SnapshotId current) {
    super("cannot publish snapshot " + snapshot + " of dataset " + dataset
        + ": the newer snapshot " + current + " is current already");
    this.snapshot = snapshot;
    this.current = current;
  }

  public SnapshotId snapshot() {
    return snapshot;
  }

  public SnapshotId current() {
    return current;
  }
}
