package io.snapds.dataset;

import org.apache.tephra.Transaction;
import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.lock.LeaseKeeper;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.read.SnapshotRowCounter;
import io.snapds.dataset.store.MetadataStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.tephra.TransactionFailureException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A begun snapshot: the building transaction (whose write pointer is the id), the writer lock's
 * lease kept alive by a heartbeat, and a row writer. {@link #commit()} publishes in one metadata
 * transaction that also checks the fencing token; {@link #abort()} gives everything up.
 */
final class SnapshotWriterImpl implements SnapshotWriter {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotWriterImpl.class);

  private enum Status { OPEN, COMMITTED, STAGED, ABORTED, UNKNOWN, DETACHED, WRITE_FAILED }

  private final OperationsContext ops;
  private final MetadataStore store;
  private final SnapshotHandle handle;
  private final SnapshotInfo alreadyPublished;
  private final LeaseKeeper keeper;
  private final SnapshotRowWriter rows;
  private final Map<String, String> summary = new TreeMap<>();
  /**
   * Whether row writers other than {@link #rows} may have written into the snapshot: it was
   * resumed, its handle was handed out, or {@link #countStoredRows()} was called. Commit then
   * sums their attempt records or counts the stored rows.
   */
  private boolean writtenElsewhere;
  private Status status = Status.OPEN;
  /** The first write failure: rows it dropped are gone, so the snapshot can only be aborted. */
  private RuntimeException writeFailure;

  /** A writer for a run that was published already: writes nothing, commit returns that. */
  SnapshotWriterImpl(OperationsContext ops, SnapshotInfo alreadyPublished) {
    this.ops = ops;
    this.store = null;
    this.handle = null;
    this.alreadyPublished = alreadyPublished;
    this.keeper = null;
    this.rows = null;
  }

  /** A writer that takes {@code keeper} over (the caller stops it if this constructor throws). */
  SnapshotWriterImpl(OperationsContext ops, SnapshotHandle handle, LeaseKeeper keeper) {
    this.ops = ops;
    this.store = ops.store();
    this.handle = handle;
    this.alreadyPublished = null;
    this.rows = ops.rowWriter(ops.keys(handle.snapshot), handle.options.writeBufferBytes());
    this.keeper = keeper;
  }

  private SnapshotWriterImpl(OperationsContext ops, SnapshotHandle handle, LeaseKeeper keeper, boolean resumed) {
    this(ops, handle, keeper);
    this.writtenElsewhere = resumed;
  }

  /**
   * Carries on a snapshot begun elsewhere, whose record is {@code recorded}: its lease gets a
   * heartbeat from this process from now on.
   *
   * @throws SnapshotNotAvailableException if the snapshot is no longer BUILDING
   */
  static SnapshotWriter resume(OperationsContext ops, SnapshotInfo recorded, SnapshotHandle handle) {
    requireBuilding(ops.id(), recorded);
    ops.remember(recorded);
    LeaseKeeper keeper = new LeaseKeeper(ops.locks(), leaseOf(ops, handle), ops.properties().lockSettings(),
        buildTimeLeft(ops, recorded.createdAt()));
    try {
      return new SnapshotWriterImpl(ops, handle, keeper, true); // the rows were written elsewhere
    } catch (RuntimeException | Error e) {
      keeper.close();
      throw e;
    }
  }

  /**
   * How long a build begun at {@code createdAt} may still renew its lease: the rest of its maximum
   * build time, past which Tephra times its transaction out and cleanup takes it for dead.
   */
  private static java.time.Duration buildTimeLeft(OperationsContext ops, java.time.Instant createdAt) {
    java.time.Duration left = ops.properties().maxBuildTime().minus(java.time.Duration.between(createdAt,
        ops.clock().instant()));
    return left.isNegative() ? java.time.Duration.ZERO : left;
  }

  /** The lease {@code handle}'s writer holds, as a keeper renews it (conditioned on owner and token). */
  private static LockLease leaseOf(OperationsContext ops, SnapshotHandle handle) {
    return new LockLease(handle.options.lockName(), handle.options.owner(), handle.token,
        ops.clock().instant(), ops.clock().instant().plus(ops.properties().lockSettings().leaseDuration()));
  }

  /** Workers write only into a snapshot that is BUILDING: its writer has neither published nor given it up. */
  static SnapshotInfo requireBuilding(DatasetId dataset, SnapshotInfo recorded) {
    if (recorded.state() != SnapshotState.BUILDING) {
      throw new SnapshotNotAvailableException(dataset, recorded.id(), recorded.state());
    }
    return recorded;
  }

  @Override
  public SnapshotKeys snapshotKeys() {
    return alreadyPublished != null ? alreadyPublished.keys() : rows.keys();
  }

  @Override
  public SnapshotId snapshotId() {
    return alreadyPublished != null ? alreadyPublished.id() : handle.snapshot;
  }

  @Override
  public Optional<SnapshotInfo> alreadyPublished() {
    return Optional.ofNullable(alreadyPublished);
  }

  /** The handle to resume this writer elsewhere (MapReduce); absent when already published. */
  public Optional<SnapshotHandle> handle() {
    writtenElsewhere |= handle != null; // whoever gets it may write rows into the snapshot
    return Optional.ofNullable(handle);
  }

  @Override
  public SnapshotWriter put(byte[] key, String family, byte[] qualifier, byte[] value) {
    checkWritable();
    writing(() -> rows.put(key, family, qualifier, value));
    return this;
  }

  @Override
  public SnapshotWriter put(SnapshotRow row) {
    checkWritable();
    writing(() -> rows.put(row));
    return this;
  }

  @Override
  public SnapshotWriter delete(byte[] key) {
    checkWritable();
    writing(() -> rows.delete(key));
    return this;
  }

  @Override
  public SnapshotWriter summary(String key, String value) {
    checkArgument(key != null && !key.isEmpty() && key.indexOf('=') < 0 && key.indexOf('\n') < 0,
        "invalid summary key '%s': non-empty, without '=' or newline", key);
    checkArgument(value != null && value.indexOf('\n') < 0, "invalid summary value '%s' for key '%s'", value, key);
    summary.put(key, value);
    return this;
  }

  @Override
  @Deprecated
  public SnapshotWriter addCounts(long rowCount, long byteCount) {
    checkArgument(rowCount >= 0 && byteCount >= 0, "counts must be >= 0, got %s rows, %s bytes", rowCount, byteCount);
    return countStoredRows();
  }

  @Override
  public SnapshotWriter countStoredRows() {
    writtenElsewhere = true;
    return this;
  }

  @Override
  public SnapshotHandle detach() {
    checkWritable();
    writtenElsewhere = true;
    writing(rows::close);
    recordOwnRowsBeforeHandover();
    keeper.close();
    status = Status.DETACHED;
    return handle;
  }

  @Override
  public LeaseHold detachHoldingLease() {
    checkWritable();
    writing(rows::close);
    recordOwnRowsBeforeHandover();
    // a keeper of its own before this writer's stops, so that no beat is skipped in between; it
    // renews for what is left of the writer's: past the build's time cleanup takes the build for dead
    LeaseKeeper bridge = new LeaseKeeper(ops.locks(), keeper.lease(), ops.properties().lockSettings(),
        keeper.renewalLeft());
    keeper.close();
    status = Status.DETACHED;
    return new LeaseHold(handle, bridge);
  }

  @Override
  public void flush() {
    checkWritable();
    writing(rows::flush);
  }

  /**
   * Runs a write. HBase's BufferedMutator drops the mutations of a flush that failed, so after a
   * storage failure the rows written so far are not all there: from then on the writer refuses
   * to commit, and only abort (or close) is left. Bad input (an IllegalArgumentException before
   * anything was buffered) loses nothing and leaves the writer usable.
   */
  private void writing(Runnable write) {
    try {
      write.run();
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      writeFailure = e;
      status = Status.WRITE_FAILED;
      throw e;
    }
  }

  @Override
  public SnapshotInfo commit() {
    return publishOrStage(false);
  }

  @Override
  public SnapshotInfo stage() {
    ops.checkMayStage();
    return publishOrStage(true);
  }

  private SnapshotInfo publishOrStage(boolean stage) {
    if (alreadyPublished != null) {
      return alreadyPublished;
    }
    long started = System.nanoTime();
    Publication publication = prepare(stage);
    Publication.Published published;
    try {
      published = store.update((stage ? "stage snapshot " : "publish snapshot ") + handle.snapshot,
          publication::apply);
    } catch (RuntimeException e) {
      throw failed(e);
    }
    SnapshotInfo done = published(published);
    if (!stage) {
      ops.metrics().published(System.nanoTime() - started);
    }
    return done;
  }

  /**
   * Everything a publish does before its metadata commit: the rows flushed, the lease checked, the
   * counts taken. Returns the commit to make (alone, or as a member of a {@link PublishGroup}).
   *
   * @throws FencedWriterException if the lease was lost (the snapshot is aborted)
   */
  Publication prepare(boolean stage) {
    checkState(alreadyPublished == null, "run '%s' was already published as snapshot %s",
        alreadyPublished == null ? null : alreadyPublished.runId().orElse(null),
        alreadyPublished == null ? null : alreadyPublished.id());
    checkState(status != Status.WRITE_FAILED,
        "snapshot %s lost rows in a failed write (%s): it cannot be committed; abort it and write it again",
        handle.snapshot, writeFailure);
    checkState(status == Status.OPEN, "snapshot %s is %s, cannot commit", handle.snapshot, status);
    try {
      writing(rows::flush);
      if (keeper.isLost()) {
        long fence = store.read(view -> view.fence(handle.options.lockName()));
        abortQuietly();
        throw new FencedWriterException(ops.id(), handle.snapshot, handle.token, Math.max(fence, handle.token + 1));
      }
      SnapshotRowCounter.Counts counts = storedCounts();
      return new Publication(ops.id(), handle.snapshot, handle.token, handle.options, counts.rows(), counts.bytes(),
          summary, ops.properties().retention(), stage, null);
    } catch (AccessDeniedException e) {
      abortQuietly(); // denied now means denied on every retry: give the snapshot up
      throw e.within("publish snapshot " + handle.snapshot, DatasetRole.WRITER);
    }
  }

  /**
   * The metadata commit failed with {@code e}: gives the snapshot up when no retry can publish it,
   * keeps it (and its lock) when the outcome is unknown. Returns the exception to throw.
   */
  RuntimeException failed(RuntimeException e) {
    if (e instanceof AccessDeniedException denied) {
      abortQuietly(); // denied now means denied on every retry: give the snapshot up
      return denied.within("publish snapshot " + handle.snapshot, DatasetRole.WRITER);
    }
    if (e instanceof FencedWriterException || e instanceof SupersededSnapshotException
        || e instanceof SnapshotNotAvailableException) {
      abortQuietly();
    } else if (e instanceof CommitStateUnknownException) {
      status = Status.UNKNOWN;
      keeper.close();
    }
    return e;
  }

  /** The metadata commit made {@code published}: what follows it (lock released, build transaction ended). */
  SnapshotInfo published(Publication.Published published) {
    if (published.byAnotherWriter()) {
      // another writer published (or staged) this run id (under another lock) first: ours never becomes visible
      LOG.info("run '{}' of dataset {} was published as snapshot {} meanwhile; aborting snapshot {}",
          handle.options.runId(), ops.id(), published.snapshot().id(), handle.snapshot);
      abortQuietly();
      return published.snapshot();
    }
    status = published.snapshot().state() == SnapshotState.STAGED ? Status.STAGED : Status.COMMITTED;
    afterPublish(published);
    return published.snapshot();
  }

  OperationsContext operations() {
    return ops;
  }

  /**
   * The rows and bytes a reader of the snapshot will get (docs/design.md "Publishing"): this
   * writer's own counters when they are exact (it alone wrote, in ascending key order, each cell
   * once, nothing deleted); when other writers (task attempts) wrote it all, the sum of their
   * records if those say what is stored ({@link AttemptCounts}); else one key-only scan of the
   * snapshot's range, which costs a read of the snapshot just written and nothing of the history.
   */
  private SnapshotRowCounter.Counts storedCounts() {
    if (!writtenElsewhere && rows.countsExact()) {
      return new SnapshotRowCounter.Counts(rows.rowCount(), rows.byteCount());
    }
    if (rows.rowCount() == 0 && rows.countsExact() && youngerThanItsRecords()) {
      // the rows came from attempts (tasks) alone: their records may say what the snapshot stores
      Optional<SnapshotRowCounter.Counts> summed = AttemptCounts.sum(ops.locks().attempts(handle.snapshot));
      if (summed.isPresent()) {
        ops.metrics().counted(true);
        return summed.get();
      }
    }
    ops.metrics().counted(false);
    return SnapshotRowCounter.count(ops.connection(), ops.id(), rows.keys());
  }

  /**
   * Whether the build is still within its maximum build time, so that no attempt record has expired:
   * they live twice that time from when they were written (after the begin), and the margin covers
   * clock skew between this process and the region server. An older build (its publish comes after
   * the time cleanup would take it for dead) counts the stored rows.
   */
  private boolean youngerThanItsRecords() {
    java.time.Duration left = keeper.renewalLeft();
    return left != null && !left.isZero();
  }

  /**
   * Rows this writer sent before handing the snapshot over would have no attempt record: a record
   * without counts makes the publish of whoever resumes it count the stored rows.
   */
  private void recordOwnRowsBeforeHandover() {
    if (rows.rowCount() > 0 || !rows.countsExact()) {
      ops.locks().recordAttempt(handle.snapshot, "writer-" + java.util.UUID.randomUUID(), ops.attemptRecordTtl());
    }
  }

  /**
   * The publish committed: whatever fails now must neither hide that from the caller nor keep
   * the lock. Each step runs whatever became of the one before; a failure is logged, and what it
   * left behind is found later (the lease expires, cleanup ends the build transaction and sets
   * missing cleanup fences).
   */
  private void afterPublish(Publication.Published published) {
    keeper.close(); // first: nothing may renew the lease of a finished writer
    bestEffort("closing the row writer", rows::close);
    bestEffort("ending the building transaction", this::finishBuildTransaction);
    bestEffort("releasing the lock", () -> ops.locks().release(keeper.lease()));
    if (writtenElsewhere) {
      bestEffort("removing the attempts' records", () -> ops.locks().forgetAttempts(handle.snapshot));
    }
    bestEffort("setting cleanup fences", () -> Cleanup.fenceAfter(ops, published.expired()));
  }

  private void bestEffort(String step, Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      LOG.warn("snapshot {} of {} is published; {} failed afterwards, which cleanup or lease expiry repairs: {}",
          handle.snapshot, ops.id(), step, e.toString());
    }
  }

  private void finishBuildTransaction() {
    try {
      ops.txClient().commitOrThrow(handle.buildTx);
    } catch (TransactionFailureException | RuntimeException e) {
      // the build transaction wrote nothing transactional; if it timed out it sits in the
      // invalid list, where it has no reason to stay
      LOG.info("build transaction {} of snapshot {} did not commit ({}); removing it from the invalid list",
          handle.buildTx.getTransactionId(), handle.snapshot, e.toString());
      ops.txClient().truncateInvalidTx(Set.of(handle.buildTx.getTransactionId()));
    }
  }

  @Override
  public void abort() {
    if (alreadyPublished != null || status != Status.OPEN && status != Status.WRITE_FAILED) {
      return;
    }
    abortQuietly();
  }

  /**
   * Marks a snapshot aborted (with a cleanup fence) and ends its building transaction. Its rows
   * are left to cleanup, which deletes aborted snapshots without waiting for readers (none could
   * read them): an abort costs the same whatever the snapshot's size.
   */
  static void abortSnapshot(OperationsContext ops, SnapshotId snapshot, Transaction buildTx) {
    try {
      ops.store().update("abort snapshot " + snapshot, view -> {
        SnapshotInfo s = view.snapshot(snapshot).orElse(null);
        if (s == null || s.state() != SnapshotState.BUILDING && s.state() != SnapshotState.ABORTED) {
          return false;
        }
        view.putSnapshot(s.toBuilder().state(SnapshotState.ABORTED)
            .cleanupFence(view.transaction().getWritePointer()).build());
        return true;
      });
    } finally {
      // even when the metadata cannot be changed (access revoked, say), end the building
      // transaction: then the next cleanup sees a dead writer and aborts the snapshot
      ops.txClient().abort(buildTx);
    }
  }

  private void abortQuietly() {
    status = Status.ABORTED;
    try {
      rows.close();
    } catch (RuntimeException e) {
      LOG.warn("closing the row writer of snapshot {} failed: {}", handle.snapshot, e.toString());
    }
    keeper.close();
    try {
      abortSnapshot(ops, handle.snapshot, handle.buildTx);
    } catch (RuntimeException e) {
      LOG.warn("aborting snapshot {} failed; cleanup will find it: {}", handle.snapshot, e.toString());
    }
    try {
      ops.locks().release(keeper.lease());
    } catch (RuntimeException e) {
      LOG.warn("releasing the lock of snapshot {} failed; its lease will expire: {}", handle.snapshot, e.toString());
    }
  }

  @Override
  public void close() {
    abort();
  }

  private void checkWritable() {
    checkState(alreadyPublished == null, "run '%s' was already published as snapshot %s: nothing to write",
        alreadyPublished == null ? null : alreadyPublished.runId().orElse(null),
        alreadyPublished == null ? null : alreadyPublished.id());
    checkState(status != Status.WRITE_FAILED, "snapshot %s lost rows in a failed write (%s): abort it",
        handle.snapshot, writeFailure);
    checkState(status == Status.OPEN, "snapshot %s is %s: no more writes", handle.snapshot, status);
  }
}
