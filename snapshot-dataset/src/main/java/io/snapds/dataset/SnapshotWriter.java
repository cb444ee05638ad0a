package io.snapds.dataset;

import java.util.Optional;

/**
 * Builds one snapshot: rows go under the snapshot's key prefix, invisible to every reader, until
 * {@link #commit()} publishes them all at once. Not thread-safe: one thread writes; a MapReduce
 * job uses one writer per task over the same snapshot id (see the snapshot-mapreduce module).
 *
 * <pre>{@code
 * try (SnapshotWriter w = dataset.newSnapshot().runId("daily-2026-11-30").begin()) {
 *   for (Contract c : contracts) {
 *     w.put(c.key(), "d", "price", c.priceBytes());
 *   }
 *   SnapshotInfo published = w.commit();
 * } // close() without commit() aborts: the current snapshot stays as it was
 * }</pre>
 */
public interface SnapshotWriter extends AutoCloseable {
  /** The id the rows are written under (the building transaction's write pointer). */
  SnapshotId snapshotId();

  /** Where the rows are written in the data table (the snapshot's key prefix). */
  SnapshotKeys snapshotKeys();

  /**
   * Present when the run id given at begin was published before: then nothing is written, and
   * {@link #commit()} returns that snapshot again instead of publishing a second one.
   */
  Optional<SnapshotInfo> alreadyPublished();

  /**
   * Writes one cell. Consecutive puts to the same key count as one row in the summary.
   *
   * @throws IllegalArgumentException for an empty or too long key, a family the dataset does not
   *     have, a null qualifier or value, or a value over HBase's cell size limit
   * @throws IllegalStateException after commit or abort, or when the run was already published
   */
  SnapshotWriter put(byte[] key, String family, byte[] qualifier, byte[] value);

  default SnapshotWriter put(byte[] key, String family, String qualifier, byte[] value) {
    return put(key, family, qualifier == null ? null : qualifier.getBytes(java.nio.charset.StandardCharsets.UTF_8), value);
  }

  /** Writes every cell of {@code row}. */
  SnapshotWriter put(SnapshotRow row);

  /** Removes a row written earlier into this snapshot. */
  SnapshotWriter delete(byte[] key);

  /** Records a fact in the snapshot's summary (for example a checksum), published with it. */
  SnapshotWriter summary(String key, String value);

  /**
   * Says that row writers other than this one ({@link SnapshotDataset#openRowWriter}) wrote into
   * this snapshot, so that {@link #commit()} publishes the rows and bytes stored under it rather
   * than this writer's own counts: the sum of those writers' records in the lock table when they
   * say what is stored (each wrote its keys once, ascending, its sends all landed, and no two
   * writers' key ranges overlap), else one key-only scan of the snapshot. A resumed writer, and
   * one whose handle was handed out, count so already.
   */
  SnapshotWriter countStoredRows();

  /**
   * Formerly added the counts of other writers to this writer's. Counters of several writers
   * cannot be summed into what a reader gets (two may write the same key, one may delete what
   * another wrote), so the published counts are now always the stored ones: this only checks
   * its arguments and calls {@link #countStoredRows()}.
   *
   * @deprecated use {@link #countStoredRows()}
   */
  @Deprecated
  SnapshotWriter addCounts(long rowCount, long byteCount);

  /**
   * The handle to carry this writer to another process ({@link SnapshotDataset#resume}); empty
   * when the run was already published.
   */
  Optional<SnapshotHandle> handle();

  /**
   * Hands the snapshot over to another process without aborting it: sends the buffered rows,
   * stops this process's heartbeat and returns the handle the other process resumes with
   * ({@link SnapshotDataset#resume}). Until it does, the lease lasts its duration from the last
   * heartbeat. This writer accepts nothing more, and closing it no longer aborts.
   *
   * @throws IllegalStateException after commit or abort, or when the run was already published
   */
  SnapshotHandle detach();

  /**
   * Hands the snapshot over like {@link #detach()}, but this process goes on renewing the lease
   * until the other process has resumed and finished the snapshot, so that the lease cannot lapse
   * during the hand-off however long it takes: see {@link LeaseHold} for when the renewal ends.
   * This writer accepts nothing more, and closing it no longer aborts.
   *
   * @throws IllegalStateException after commit or abort, or when the run was already published
   */
  LeaseHold detachHoldingLease();

  /** Sends buffered rows to HBase now (commit does this too). */
  void flush();

  /**
   * Publishes the snapshot: one short transaction marks it committed, makes it current (unless a
   * newer one is current and it was built for a source key), records it in the history and the
   * indexes, and applies retention. Releases the writer lock. The record's row and byte counts
   * are what a reader of the snapshot gets: this writer's own counts when they are exact, else
   * its other writers' records or one key-only scan of the snapshot before the publish (see
   * {@link #countStoredRows()}).
   *
   * @throws FencedWriterException if this writer's lease was taken over meanwhile
   * @throws SupersededSnapshotException if a newer snapshot is current already
   * @throws CommitConflictException if concurrent metadata changes kept winning (retryable)
   * @throws CommitStateUnknownException if the transaction service failed during commit
   */
  SnapshotInfo commit();

  /**
   * Stages the snapshot for an audit instead of publishing it (write, audit, publish): one short
   * transaction records it STAGED, with the current snapshot as its parent, and takes its run id.
   * A staged snapshot is complete and immutable, readable by id ({@link SnapshotDataset#readSnapshot},
   * pins, MapReduce, Hive, the command line), but never current and invisible to time travel by
   * time until {@link SnapshotDataset#publish} makes it current; {@link SnapshotDataset#discard},
   * or the reconciler once it is older than {@code staged.max.age}, expires it. Releases the writer
   * lock. A run id already staged or published returns that snapshot, as {@link #commit()} does.
   *
   * @throws FencedWriterException if this writer's lease was taken over meanwhile
   * @throws SupersededSnapshotException if a newer snapshot is current already
   * @throws CommitConflictException if concurrent metadata changes kept winning (retryable)
   * @throws CommitStateUnknownException if the transaction service failed during commit
   */
  SnapshotInfo stage();

  /** Gives the snapshot up: it is marked aborted; {@code cleanup()} deletes its rows later. Idempotent. */
  void abort();

  /** Aborts unless committed. */
  @Override
  void close();
}
