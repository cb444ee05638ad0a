package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.store.MetadataStore;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a dataset's outbox events to an {@link EventSink}, in sequence order, at least once,
 * and records how far it got: the relay's <em>delivered position</em>, row {@code o} + the relay's
 * name in the dataset's metadata, written in a metadata transaction <b>after</b> the sink
 * acknowledged a batch (its {@code deliver} returned).
 *
 * <p>{@link #run()} reads the events after the position in batches of at most
 * {@link #batchSize(int) batchSize} (one bounded scan each), hands each batch to the sink and
 * records the batch's last sequence, until it has delivered every event that existed when it
 * started. Killed at any point, it loses nothing: before the position is written the next run
 * delivers the batch again (duplicates, never gaps), and after it the batch is done. Two relays of
 * the same name running at once deliver some events twice but keep the order of first delivery
 * (each resumes only after an acknowledged position), and the position never moves back; the
 * reconciler's lock keeps its relays to one at a time.
 *
 * <p>A relay whose position fell behind the retained window ({@code events.retain.last}) stops
 * with {@link RelayBehindWindowException} and {@link SnapshotDataset#status()} lists it under
 * attention: the pruned events are not skipped silently. After resyncing the consumers a person
 * moves it on with {@link #skipTo(long)}.
 *
 * <p>Cost per run: one read of the pointer row and the position row, then per batch one scan of
 * at most {@code batchSize} outbox rows and one metadata commit (which, like every metadata commit,
 * writes the pointer row), whatever the length of the history.
 */
public final class Relay {
  private static final Logger LOG = LoggerFactory.getLogger(Relay.class);
  /** Events per batch unless set. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  private final OperationsContext ops;
  private final DatasetId dataset;
  private final MetadataStore store;
  private final String name;
  private final EventSink sink;
  private final int batchSize;

  Relay(OperationsContext ops, String name, EventSink sink, int batchSize) {
    checkArgument(name != null && !name.isBlank(), "relay name must not be empty, got '%s'", name);
    checkArgument(batchSize >= 1, "relay batch size must be >= 1, got %s", batchSize);
    this.ops = checkNotNull(ops, "operations context");
    this.dataset = ops.id();
    this.store = ops.store();
    this.name = name;
    this.sink = checkNotNull(sink, "sink");
    this.batchSize = batchSize;
  }

  /**
   * Moves the delivered position of {@code name} forward to {@code sequence}, never back (a
   * concurrent relay of the same name may be ahead), in one metadata transaction named
   * {@code description}; returns the position now recorded. Relays and consumers that record
   * their own position ({@code SnapshotDataset.advanceDeliveredPosition}) share it.
   */
  static long advanceDeliveredPosition(OperationsContext ops, String description, String name, long sequence) {
    return ops.store().update(description, view -> {
      long at = view.deliveredPosition(name);
      if (sequence <= at) {
        return at;
      }
      view.putDeliveredPosition(name, sequence);
      return sequence;
    });
  }

  /**
   * A relay of {@code dataset}'s events to {@code sink} under {@code name}: the name keys its
   * delivered position, so each destination gets a name of its own and keeps it.
   */
  public static Relay of(SnapshotDataset dataset, String name, EventSink sink) {
    return of(dataset.operations(), name, sink);
  }

  static Relay of(OperationsContext ops, String name, EventSink sink) {
    return new Relay(ops, name, sink, DEFAULT_BATCH_SIZE);
  }

  /** This relay with at most {@code events} events per batch (default {@value #DEFAULT_BATCH_SIZE}). */
  public Relay batchSize(int events) {
    return new Relay(ops, name, sink, events);
  }

  public String name() {
    return name;
  }

  /** The sequence of the newest event the sink acknowledged; 0 before the first. */
  public long position() {
    return store.read(view -> view.deliveredPosition(name));
  }

  /**
   * Delivers the events after the position that exist when the run starts, batch by batch,
   * recording the position after each acknowledged batch. A sink failure ends the run (the
   * result says so, and the position stays at the last acknowledged batch); storage errors are
   * thrown.
   *
   * @throws RelayBehindWindowException if events after the position were pruned
   */
  public RelayResult run() {
    long[] state = store.read(view -> new long[] {view.deliveredPosition(name), view.lastEventSequence()});
    long from = state[0];
    long target = state[1];
    RelayResult result = deliver(from, target);
    ops.metrics().relayed(name, Math.max(0, target - from), result.undelivered());
    return result;
  }

  private RelayResult deliver(long from, long target) {
    long at = from;
    while (at < target) {
      long after = at;
      List<DatasetEvent> batch;
      try {
        batch = store.read(view -> view.events(after, (int) Math.min(batchSize, target - after)));
      } catch (EventsPrunedException e) {
        throw new RelayBehindWindowException(dataset, name, after, e.oldestRetained());
      }
      try {
        sink.deliver(batch);
      } catch (RuntimeException e) {
        LOG.warn("relay '{}' of {}: the sink failed on events {}..{}; the next run delivers them again", name,
            dataset, after + 1, batch.get(batch.size() - 1).sequence(), e);
        return new RelayResult(name, dataset, from, at, target, Optional.of(e.toString()));
      }
      long delivered = batch.get(batch.size() - 1).sequence();
      at = advanceDeliveredPosition(ops, "record delivered position of relay " + name, name, delivered);
    }
    return new RelayResult(name, dataset, from, at, target, Optional.empty());
  }

  /**
   * Moves the position forward to {@code sequence} without delivering the events up to it: for a
   * relay behind the retained window, after its consumers were resynced
   * ({@link RelayBehindWindowException}). Never moves it back.
   *
   * @throws IllegalArgumentException if {@code sequence} is after the dataset's last event
   */
  public void skipTo(long sequence) {
    long was = position();
    if (advanceDeliveredPosition(ops, "skip relay " + name + " to " + sequence, name, sequence) > was) {
      LOG.warn("relay '{}' of {} skipped events {}..{} without delivering them", name, dataset, was + 1, sequence);
    }
  }

  @Override
  public String toString() {
    return "Relay{" + name + " of " + dataset + " to " + sink + "}";
  }

  /**
   * What one {@link #run()} did.
   *
   * @param fromPosition the delivered position when it started
   * @param toPosition the delivered position when it ended
   * @param lastSequence the dataset's last event sequence when it started (what it set out to deliver)
   * @param failure what the sink threw, when it failed (the next run delivers from {@code toPosition})
   */
  public record RelayResult(String relay, DatasetId dataset, long fromPosition, long toPosition, long lastSequence,
      Optional<String> failure) {
    public RelayResult {
      checkNotNull(failure, "failure");
    }

    /** Events acknowledged by this run. */
    public long delivered() {
      return toPosition - fromPosition;
    }

    /** Events that existed when the run started and are still undelivered. */
    public long undelivered() {
      return Math.max(0, lastSequence - toPosition);
    }

    /** This run followed by {@code later}, a run of the same relay. */
    RelayResult then(RelayResult later) {
      return new RelayResult(relay, dataset, fromPosition, later.toPosition, later.lastSequence, later.failure);
    }
  }
}
