package io.snapds.events;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasetException;

/**
 * A sink could not deliver a batch of events: none of it counts as delivered, and the relay
 * delivers it again on its next run (parts of it may have arrived: duplicates, not gaps).
 */
public class EventDeliveryException extends SnapshotDatasetException {
  private final DatasetId dataset;
  private final long firstSequence;
  private final long lastSequence;

  public EventDeliveryException(DatasetId dataset, long firstSequence, long lastSequence, String destination,
      Throwable cause) {
    super("delivering events " + firstSequence + ".." + lastSequence + " of " + dataset + " to " + destination
        + " failed (the relay delivers them again): " + cause, cause);
    this.dataset = dataset;
    this.firstSequence = firstSequence;
    this.lastSequence = lastSequence;
  }

  public DatasetId dataset() {
    return dataset;
  }

  public long firstSequence() {
    return firstSequence;
  }

  public long lastSequence() {
    return lastSequence;
  }
}
