package io.snapds.dataset.store;

import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.tephra.Transaction;

/**
 * The metadata of one dataset as one transaction sees it, read on demand: each method reads only
 * the rows it needs (the pointer row, one snapshot record, an index range) and caches them for
 * the rest of the transaction. Changes are recorded with the {@code put...}/{@link #moveCurrent}
 * methods; reads after a change see it. The store writes only the columns that changed.
 *
 * <p>Costs do not grow with the number of publishes ever made: {@link #current()} is one row,
 * {@link #snapshot} one row, {@link #retained()}, {@link #building()} and
 * {@link #awaitingCleanup()} read index ranges as long as those sets are, and
 * {@link #history()}/{@link #snapshots()} read what the history horizon keeps.
 */
public interface MetadataView {
  /** The transaction the view reads in (write pointer, in-progress and invalid lists). */
  Transaction transaction();

  Optional<SnapshotId> current();

  Optional<SnapshotInfo> currentInfo();

  /** The record of one snapshot; empty if none was ever recorded or it is past the horizon. */
  Optional<SnapshotInfo> snapshot(SnapshotId id);

  /** True when {@code id} is at or below the newest snapshot whose record the horizon deleted. */
  boolean pastHorizon(SnapshotId id);

  /** The newest snapshot id whose record the horizon deleted (pointer row {@code horizon.id}), 0 if none. */
  long horizonId();

  /** The newest cleaned snapshot whose record the horizon keeps (the {@code d} index's last row), if any. */
  Optional<SnapshotId> newestCleaned();

  /**
   * The records of those of {@code ids} that have one, in their order, read in one call however
   * many there are (a commit racing others must not read them one by one: its window would grow
   * with their number).
   */
  List<SnapshotInfo> snapshots(Collection<SnapshotId> ids);

  /**
   * The last key number given to a snapshot ({@link io.snapds.dataset.SnapshotKeys}), 0 if none:
   * every snapshot numbered so far has a number at or below it.
   */
  long lastKeyNumber();

  /**
   * Gives the next key number, written with this transaction's commit (on the pointer row, which
   * every commit writes, so two commits never give the same number and a number is never given
   * again, even when its snapshot is aborted and cleaned).
   */
  long nextKeyNumber();


  /** Committed snapshots, newest first. */
  List<SnapshotInfo> retained();

  /** Snapshots still BUILDING, oldest first. */
  List<SnapshotInfo> building();

  /** Expired and aborted snapshots whose rows are not yet deleted, oldest first. */
  List<SnapshotInfo> awaitingCleanup();

  /** Every snapshot record the horizon keeps, newest first. */
  List<SnapshotInfo> snapshots();

  Optional<SnapshotInfo> tagged(String tag);

  /** The changes of the current pointer the horizon keeps, oldest first. */
  List<HistoryEntry> history();

  /** The newest history entry at or before {@code time}. */
  Optional<HistoryEntry> currentAt(Instant time);

  /** The time of the newest history entry the horizon deleted, if it deleted any. */
  Optional<Instant> historyHorizon();

  Optional<SnapshotId> snapshotForRun(String runId);

  Optional<SnapshotId> snapshotForSource(String sourceKey);

  /** Highest fencing token recorded for a lock, 0 if none. */
  long fence(String lockName);

  /**
   * The commit time of this transaction: the transaction manager's clock (encoded in the write
   * pointer) and never before the newest history entry, so times follow the commit order.
   */
  Instant commitTime();

  /** Records a snapshot's new record; the indexes (retained, building, cleanup, tags) follow it. */
  void putSnapshot(SnapshotInfo info);

  /** Makes {@code id} current and appends a history entry at {@link #commitTime()}. */
  void moveCurrent(SnapshotId id, String reason);

  void putRun(String runId, SnapshotId id);

  void putSource(String sourceKey, SnapshotId id);

  void putFence(String lockName, long token);

  /**
   * Deletes what lies past the history horizon: history entries beyond the newest
   * {@code keepLast} that are older than {@code maxAge} (if given), and likewise the records of
   * cleaned snapshots with their run-id, source-key and (when no writer of the key is left)
   * fence rows; then physically purges rows whose deletion every transaction already sees.
   *
   * @param lockOfSource the lock name of a source key, for its fence row
   */
  HorizonTrim trimToHorizon(int keepLast, Optional<Duration> maxAge, Function<String, String> lockOfSource);

  /** What {@link #trimToHorizon} removed: history entries, snapshot records, rows purged. */
  record HorizonTrim(int historyEntries, int snapshotRecords, int rowsPurged, java.util.List<String> locksFreed) {
    /**
     * @param locksFreed the locks (of source keys) whose fence row went with their last record: no
     *     snapshot of the key is left to fence, so their lock-table rows may go too
     */
    public HorizonTrim {
      locksFreed = java.util.List.copyOf(locksFreed);
    }
  }

  /** The id of the dataset's current schema; empty for a schema-less dataset. */
  Optional<Integer> currentSchemaId();

  /**
   * A schema the dataset recorded, by id; empty if none has that id.
   *
   * @throws io.snapds.dataset.CorruptMetadataException if its row does not parse
   */
  Optional<io.snapds.dataset.schema.Schema> schema(int schemaId);

  /** The highest field id given up to schema {@code schemaId} (0 when there is no such schema). */
  int lastFieldId(int schemaId);

  /**
   * Records {@code schema} under {@code schemaId} with the highest field id given so far, and
   * makes it the current schema. Snapshots begun afterwards record that id.
   */
  void putSchema(int schemaId, io.snapds.dataset.schema.Schema schema, int lastFieldId);
  /** The sequence number of the newest event of the outbox; 0 before the first. */
  long lastEventSequence();

  /**
   * Up to {@code limit} events with sequence numbers after {@code afterSequence}, in sequence
   * order: one scan of at most {@code limit} outbox rows.
   *
   * @throws io.snapds.dataset.EventsPrunedException if events after {@code afterSequence} were pruned
   */
  List<io.snapds.dataset.DatasetEvent> events(long afterSequence, int limit);

  /** Deletes outbox events older than the newest {@code keepLast} (at most 10,000 per call); returns how many. */
  int trimEvents(int keepLast);

  /** The sequence of the oldest event the outbox still holds (one row read); 0 when it holds none. */
  long oldestEventSequence();

  /**
   * The delivered position recorded under {@code name} (a relay's or a consumer's, row {@code o} +
   * name): the sequence of the newest event it acknowledged; 0 when none is recorded.
   */
  long deliveredPosition(String name);

  /** Records {@code name}'s delivered position (an event sequence, 0 to {@link #lastEventSequence()}). */
  void putDeliveredPosition(String name, long sequence);

  /** Every recorded delivered position by name, in name order (one scan of the {@code o} rows). */
  java.util.SortedMap<String, Long> deliveredPositions();

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

  /**
   * The first step of a truncate: deletes every snapshot record, index, tag, run and source name,
   * the history and the schemas, clears the current pointer, writes the TRUNCATED event and marks
   * the dataset as being truncated (no snapshot begins until {@link #finishTruncate}). Keeps the
   * key number counter, the fences, the outbox and the delivered positions, so that nothing a
   * process of the earlier incarnation holds (a key range, a lock token, an event sequence) is
   * given again. Returns the mark: this transaction's write pointer, above the id of every
   * snapshot the dataset had.
   */
  long resetForTruncate();

  /** The mark of a truncate in progress (or cut off): {@link #resetForTruncate()}'s value; 0 if none. */
  long truncating();

  /** The last step of a truncate: snapshots may begin again. No-op unless {@code truncation} is the mark. */
  void finishTruncate(long truncation);

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
   * How far an interrupted cleanup of {@code id} got (row {@code q} + id); {@link CleanupProgress#NONE}
   * when none is recorded. One row read.
   */
  CleanupProgress cleanupProgress(SnapshotId id);

  /**
   * {@link #cleanupProgress(SnapshotId)} of each of {@code ids}, read in one call however many
   * there are.
   */
  Map<SnapshotId, CleanupProgress> cleanupProgress(Collection<SnapshotId> ids);

  /** Records how far the cleanup of {@code id} got; {@link CleanupProgress#NONE} removes the row. */
  void putCleanupProgress(SnapshotId id, CleanupProgress progress);

  /** True when something was recorded. */
  boolean changed();
}
