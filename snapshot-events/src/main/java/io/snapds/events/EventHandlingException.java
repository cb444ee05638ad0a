package io.snapds.events;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.SnapshotDatasetException;

/**
 * A consumer's handler failed on an event: the event is not marked processed, and the consumer
 * offers it again on its next poll (the handler's effect must be idempotent).
 */
public class EventHandlingException extends SnapshotDatasetException {
  private final DatasetEvent event;

  public EventHandlingException(String consumer, DatasetEvent event, Throwable cause) {
    super("consumer '" + consumer + "' failed on event " + event.sequence() + " (" + event.type() + " of snapshot "
        + event.snapshot().map(Object::toString).orElse("no snapshot") + ") of " + event.dataset() + "; it is offered again on the next poll: " + cause, cause);
    this.event = event;
  }

  /** The event the handler failed on. */
  public DatasetEvent event() {
    return event;
  }
}
