package io.snapds.events;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasetException;

/**
 * A consumer got an event whose sequence is beyond the next one it expects: the events between were
 * never offered to it (a topic that lost messages, a relay moved on with {@code Relay.skipTo}, a
 * consumer started on a topic that begins later). Nothing was processed. Resync the consumer's
 * effects, then move its position on with {@link EventConsumer#skipTo}.
 */
public class EventGapException extends SnapshotDatasetException {
  private final DatasetId dataset;
  private final long position;
  private final long offered;

  public EventGapException(DatasetId dataset, String consumer, long position, long offered) {
    super("consumer '" + consumer + "' processed events of " + dataset + " up to " + position + " but was offered "
        + offered + ": events " + (position + 1) + ".." + (offered - 1) + " never reached it; resync it, then "
        + "EventConsumer.skipTo(" + dataset + ", " + (offered - 1) + ")");
    this.dataset = dataset;
    this.position = position;
    this.offered = offered;
  }

  public DatasetId dataset() {
    return dataset;
  }

  /** The sequence of the newest event the consumer processed. */
  public long position() {
    return position;
  }

  /** The sequence it was offered. */
  public long offered() {
    return offered;
  }
}
