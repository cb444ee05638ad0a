package io.snapds.dataset;

import java.util.List;

/**
 * Where a {@link Relay} delivers a dataset's outbox events: a log, a message broker, a queue.
 *
 * <p><b>At least once, in order.</b> The relay hands {@link #deliver} batches of consecutive
 * events of one dataset in ascending sequence order, and records its delivered position (in the
 * dataset's metadata) only after {@code deliver} returned. A relay killed between the two, or a
 * {@code deliver} that throws part-way, leaves the position where it was, and the next run
 * delivers the same events again from there. So the destination receives every event at least
 * once, and the first occurrences of a dataset's events come in sequence order; duplicates are
 * possible and consumers skip them by (dataset, sequence) (docs/events.md).
 *
 * <p>Implementations must be safe to call again with events they already delivered, and must
 * not reorder the events of one dataset (a Kafka sink keys by dataset, so one dataset stays in
 * one partition). One relay calls one sink from one thread at a time.
 */
public interface EventSink extends AutoCloseable {
  /**
   * Delivers {@code batch} durably. <b>Returning normally is the acknowledgement</b>: the relay
   * then records every event of the batch as delivered and never sends them again. Return only
   * once the destination holds all of them (a Kafka sink waits for the broker's acks).
   *
   * @param batch at least one event, all of one dataset, consecutive sequences, ascending
   * @throws RuntimeException any failure: nothing of the batch counts as delivered, and the next
   *     run of the relay delivers it again (parts of it may have arrived: duplicates, not gaps)
   */
  void deliver(List<DatasetEvent> batch);

  /** Releases what the sink holds (connections, producers). The default holds nothing. */
  @Override
  default void close() {}
}
