package io.snapds.dataset.store;

import io.snapds.dataset.DatasetEvent;
import java.util.List;
import java.util.SortedMap;

/**
 * The event outbox (rows {@code e}), the dataset's lifecycle marks on the pointer row (created,
 * being dropped) and the delivered positions of relays and consumers (rows {@code o}).
 */
public interface OutboxView {
  /** The sequence number of the newest event of the outbox; 0 before the first. */
  long lastEventSequence();

  /**
   * Up to {@code limit} events with sequence numbers after {@code afterSequence}, in sequence
   * order: one scan of at most {@code limit} outbox rows.
   *
   * @throws io.snapds.dataset.EventsPrunedException if events after {@code afterSequence} were pruned
   */
  List<DatasetEvent> events(long afterSequence, int limit);

  /** Deletes outbox events older than the newest {@code keepLast} (at most 10,000 per call); returns how many. */
  int trimEvents(int keepLast);

  /** The sequence of the oldest event the outbox still holds (one row read); 0 when it holds none. */
  long oldestEventSequence();

  /**
   * True when the metadata never committed (a dataset just created, or whose create was cut off
   * before its first commit): the next commit, whatever it records, writes the CREATED event first.
   */
  boolean neverCommitted();

  /**
   * Makes this update commit even if it records nothing else, so that a dataset that
   * {@link #neverCommitted()} gets its CREATED event; for the create and the reconciler.
   */
  void announceCreated();

  /** The sequence of the DROPPED event when the dataset is being dropped; 0 otherwise. */
  long droppedSequence();

  /**
   * Writes the DROPPED event (with the current snapshot, if any) and marks the dataset as being
   * dropped: from this commit on, no change that writes an event commits (each fails with
   * {@link io.snapds.dataset.DatasetNotFoundException}); delivered positions still move. No-op
   * when it is marked already.
   */
  void markDropped();

  /**
   * The delivered position recorded under {@code name} (a relay's or a consumer's, row {@code o} +
   * name): the sequence of the newest event it acknowledged; 0 when none is recorded.
   */
  long deliveredPosition(String name);

  /** Records {@code name}'s delivered position (an event sequence, 0 to {@link #lastEventSequence()}). */
  void putDeliveredPosition(String name, long sequence);

  /** Every recorded delivered position by name, in name order (one scan of the {@code o} rows). */
  SortedMap<String, Long> deliveredPositions();
}
