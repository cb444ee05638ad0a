package io.snapds.dataset;

/**
 * A consumer asked for events after a sequence number older than the dataset's retained window
 * ({@code events.retain.last}): the events it has not seen were pruned. It must resync from the
 * dataset's current state (for example {@link SnapshotDataset#history()}) and continue from
 * {@link #oldestRetained()} - 1.
 */
public class EventsPrunedException extends SnapshotDatasetException {
  private final long afterSequence;
  private final long oldestRetained;

  public EventsPrunedException(DatasetId dataset, long afterSequence, long oldestRetained) {
    this(dataset, afterSequence, oldestRetained, "events after sequence " + afterSequence + " of dataset " + dataset
        + " were pruned (oldest retained: " + oldestRetained + "; see events.retain.last): resync the consumer");
  }

  protected EventsPrunedException(DatasetId dataset, long afterSequence, long oldestRetained, String message) {
    super(message);
    this.afterSequence = afterSequence;
    this.oldestRetained = oldestRetained;
  }

  public long afterSequence() {
    return afterSequence;
  }

  /** The oldest event sequence still stored; 0 when none is. */
  public long oldestRetained() {
    return oldestRetained;
  }
}
