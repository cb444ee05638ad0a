package io.snapds.events;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * Runs an {@link EventHandler}'s effect once per dataset event, whichever way the events arrive:
 * from a Kafka topic a {@link KafkaEventSink} fills ({@link #pollKafka}), straight from a dataset's
 * outbox ({@link #pollOutbox}), or one by one ({@link #accept}).
 *
 * <p><b>Skips what it processed, by (dataset, sequence).</b> The consumer's position for a dataset
 * is the delivered position named after the consumer in <em>that dataset's</em> metadata (row
 * {@code o} + name, the row a relay uses; {@link SnapshotDataset#deliveredPosition}), so
 * {@code snapds status} shows how far each consumer got. An event at or below the position is a
 * duplicate (Kafka delivers at least once) and is skipped; the next sequence is handled and then
 * recorded; a later one means events never reached the consumer ({@link EventGapException}).
 *
 * <p><b>Effects once.</b> The position is written in a metadata transaction of its own, after the
 * handler returned: it cannot be atomic with an effect in another dataset or engine. A crash
 * between the two offers the event again, so the effect itself must be idempotent; the shipped
 * example ({@code io.snapds.events.example.DerivedSnapshotJob}) publishes with run id
 * {@code derived-<snapshot id>}, which the target dataset commits at most once. Together: every
 * event is handled at least once and its effect happens once.
 *
 * <p>Not thread-safe: one consumer per thread. Two consumers of the same name may handle an
 * event twice (still one effect) but never move the position back. Each event costs one
 * position read and, when handled, one metadata commit on its dataset.
 */
public final class EventConsumer implements AutoCloseable {
  /** What {@link #accept} did with an event. */
  public enum Outcome {
    /** The handler ran and the position moved to the event. */
    HANDLED,
    /** Processed before (a redelivery): skipped. */
    DUPLICATE
  }

  private final SnapshotDatasets datasets;
  private final String name;
  private final EventHandler handler;
  private final Map<DatasetId, SnapshotDataset> open = new HashMap<>();

  /**
   * @param datasets where the events' datasets (and so the positions) live
   * @param name the consumer's name: its position row in each dataset; keep it for the consumer's life
   */
  public EventConsumer(SnapshotDatasets datasets, String name, EventHandler handler) {
    checkArgument(name != null && !name.isBlank(), "consumer name must not be empty, got '%s'", name);
    this.datasets = checkNotNull(datasets, "datasets");
    this.name = name;
    this.handler = checkNotNull(handler, "handler");
  }

  public String name() {
    return name;
  }

  /** The sequence of the newest event of {@code dataset} this consumer processed; 0 before the first. */
  public long position(DatasetId dataset) {
    return dataset(dataset).deliveredPosition(name);
  }

  /**
   * Offers one event: skips it when processed before, handles it and records it when it is the
   * next one.
   *
   * @throws EventGapException if events between the position and this one were never offered
   * @throws EventHandlingException if the handler failed (nothing recorded; offer it again)
   */
  public Outcome accept(DatasetEvent event) {
    SnapshotDataset ds = dataset(event.dataset());
    long at = ds.deliveredPosition(name);
    if (event.sequence() <= at) {
      return Outcome.DUPLICATE;
    }
    if (event.sequence() != at + 1) {
      throw new EventGapException(event.dataset(), name, at, event.sequence());
    }
    try {
      handler.handle(event);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EventHandlingException(name, event, e);
    } catch (Exception e) {
      throw new EventHandlingException(name, event, e);
    }
    ds.advanceDeliveredPosition(name, event.sequence());
    return Outcome.HANDLED;
  }

  /**
   * Handles the events of {@code dataset}'s outbox after this consumer's position, at most
   * {@code limit}, for deployments without Kafka. Returns how many it handled.
   *
   * @throws io.snapds.dataset.EventsPrunedException if the consumer fell behind the retained window
   */
  public int pollOutbox(DatasetId dataset, int limit) {
    List<DatasetEvent> events = dataset(dataset).events(position(dataset), limit);
    int handled = 0;
    for (DatasetEvent e : events) {
      handled += accept(e) == Outcome.HANDLED ? 1 : 0;
    }
    return handled;
  }

  /**
   * One poll of {@code kafka} (subscribed to a {@link KafkaEventSink}'s topic, with auto-commit off):
   * each record's event is offered to {@link #accept}, then the offsets are committed. Offsets
   * only save re-reading: the positions decide what is processed, so a crash before the commit
   * costs duplicates, which are skipped. Returns how many events it handled.
   *
   * @throws IllegalArgumentException naming the record when its value is not an event
   */
  public int pollKafka(Consumer<String, String> kafka, Duration timeout) {
    ConsumerRecords<String, String> records = kafka.poll(timeout);
    int handled = 0;
    for (ConsumerRecord<String, String> r : records) {
      DatasetEvent event;
      try {
        event = DatasetEvent.fromJson(r.value());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("record " + r.topic() + "-" + r.partition() + "@" + r.offset()
            + " is not a dataset event: " + e.getMessage(), e);
      }
      handled += accept(event) == Outcome.HANDLED ? 1 : 0;
    }
    if (!records.isEmpty()) {
      kafka.commitSync();
    }
    return handled;
  }

  /**
   * Moves this consumer's position for {@code dataset} forward to {@code sequence} without
   * handling the events up to it: after a resync ({@link EventGapException}). Never moves it back.
   */
  public void skipTo(DatasetId dataset, long sequence) {
    dataset(dataset).advanceDeliveredPosition(name, sequence);
  }

  private SnapshotDataset dataset(DatasetId id) {
    return open.computeIfAbsent(id, datasets::open);
  }

  @Override
  public void close() {
    open.values().forEach(SnapshotDataset::close);
    open.clear();
  }
}
