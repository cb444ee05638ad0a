package io.snapds.dataset;

import java.util.Optional;

/**
 * The snapshot asked for does not exist, or exists but cannot be read (expired, aborted, still
 * building), or there is no snapshot at the time asked for. Pick another snapshot.
 */
public class SnapshotNotAvailableException extends SnapshotDatasetException {
  private final DatasetId dataset;
  private final SnapshotId snapshot;
  private final SnapshotState state;

  public SnapshotNotAvailableException(DatasetId dataset, SnapshotId snapshot, SnapshotState state) {
    super(state == null
        ? "snapshot " + snapshot + " does not exist in dataset " + dataset
        : "snapshot " + snapshot + " of dataset " + dataset + " is " + state + ", not readable");
    this.dataset = dataset;
    this.snapshot = snapshot;
    this.state = state;
  }

  /** For subclasses that explain a particular reason. */
  protected SnapshotNotAvailableException(DatasetId dataset, SnapshotId snapshot, SnapshotState state,
      String message) {
    super(message);
    this.dataset = dataset;
    this.snapshot = snapshot;
    this.state = state;
  }

  public SnapshotNotAvailableException(DatasetId dataset, String message) {
    super(message);
    this.dataset = dataset;
    this.snapshot = null;
    this.state = null;
  }

  public DatasetId dataset() {
    return dataset;
  }

  public Optional<SnapshotId> snapshot() {
    return Optional.ofNullable(snapshot);
  }

  /** Empty when the snapshot does not exist at all. */
  public Optional<SnapshotState> state() {
    return Optional.ofNullable(state);
  }
}
