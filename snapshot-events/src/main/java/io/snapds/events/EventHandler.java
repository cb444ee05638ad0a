package io.snapds.events;

import io.snapds.dataset.DatasetEvent;

/**
 * The effect an {@link EventConsumer} runs for each new event (start a job, refresh a cache).
 *
 * <p>The consumer calls it once per (dataset, sequence), in sequence order per dataset, and
 * records the event as processed only after it returned. A crash or failure between the effect and
 * that record makes the consumer call it again with the same event, so the effect must be
 * idempotent for a given event: for example a publish whose run id is derived from the event
 * ({@code derived-<snapshot id>}), which the dataset commits at most once.
 */
@FunctionalInterface
public interface EventHandler {
  /**
   * Runs the effect of {@code event}; returning normally marks it processed.
   *
   * @throws Exception any failure: the event is not marked, and the next poll offers it again
   */
  void handle(DatasetEvent event) throws Exception;
}
