package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.lock.LeaseKeeper;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.store.DatasetState;
import io.snapds.dataset.store.MetadataStore;
import java.time.Instant;
import java.util.List;
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

  private enum Status { OPEN, COMMITTED, ABORTED, UNKNOWN, DETACHED }

  private final SnapshotDataset dataset;
  private final MetadataStore store;
  private final SnapshotHandle handle;
  private final SnapshotInfo alreadyPublished;
  private final LeaseKeeper keeper;
  private final SnapshotRowWriter rows;
  private final Map<String, String> summary = new TreeMap<>();
  private long extraRows;
  private long extraBytes;
  private Status status = Status.OPEN;

  /** A writer for a run that was published already: writes nothing, commit returns that. */
  SnapshotWriterImpl(SnapshotDataset dataset, SnapshotInfo alreadyPublished) {
    this.dataset = dataset;
    this.store = null;
    this.handle = null;
    this.alreadyPublished = alreadyPublished;
    this.keeper = null;
    this.rows = null;
  }

  SnapshotWriterImpl(SnapshotDataset dataset, MetadataStore store, SnapshotHandle handle,
      LockLease lease, Set<String> families) {
    this.dataset = dataset;
    this.store = store;
    this.handle = handle;
    this.alreadyPublished = null;
    this.keeper = new LeaseKeeper(dataset.locks(), lease, dataset.properties().lockSettings());
    this.rows = dataset.rowWriter(handle.snapshot, handle.options.writeBufferBytes());
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
    return Optional.ofNullable(handle);
  }

  @Override
  public SnapshotWriter put(byte[] key, String family, byte[] qualifier, byte[] value) {
    checkWritable();
    rows.put(key, family, qualifier, value);
    return this;
  }

  @Override
  public SnapshotWriter put(SnapshotRow row) {
    checkWritable();
    rows.put(row);
    return this;
  }

  @Override
  public SnapshotWriter delete(byte[] key) {
    checkWritable();
    rows.delete(key);
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
  public SnapshotWriter addCounts(long rowCount, long byteCount) {
    checkArgument(rowCount >= 0 && byteCount >= 0, "counts must be >= 0, got %s rows, %s bytes", rowCount, byteCount);
    extraRows += rowCount;
    extraBytes += byteCount;
    return this;
  }

  @Override
  public SnapshotHandle detach() {
    checkWritable();
    rows.close();
    keeper.close();
    status = Status.DETACHED;
    return handle;
  }

  @Override
  public void flush() {
    checkWritable();
    rows.flush();
  }

  @Override
  public SnapshotInfo commit() {
    if (alreadyPublished != null) {
      return alreadyPublished;
    }
    checkState(status == Status.OPEN, "snapshot %s is %s, cannot commit", handle.snapshot, status);
    try {
      return publishOrFail();
    } catch (AccessDeniedException e) {
      abortQuietly(); // denied now means denied on every retry: give the snapshot up
      throw e.within("publish snapshot " + handle.snapshot, DatasetRole.WRITER);
    }
  }

  private SnapshotInfo publishOrFail() {
    rows.flush();
    if (keeper.isLost()) {
      long fence = store.readLatest().fence(handle.options.lockName());
      abortQuietly();
      throw new FencedWriterException(dataset.id(), handle.snapshot, handle.token, Math.max(fence, handle.token + 1));
    }
    Published published;
    try {
      published = store.update("publish snapshot " + handle.snapshot, (base, tx) -> publish(base));
    } catch (FencedWriterException | SupersededSnapshotException | SnapshotNotAvailableException e) {
      abortQuietly();
      throw e;
    } catch (CommitStateUnknownException e) {
      status = Status.UNKNOWN;
      keeper.close();
      throw e;
    }
    status = Status.COMMITTED;
    rows.close();
    finishBuildTransaction();
    keeper.close();
    dataset.locks().release(keeper.lease());
    dataset.fenceForCleanup(published.expired());
    return published.snapshot();
  }

  private record Published(SnapshotInfo snapshot, List<SnapshotInfo> expired) {}

  private MetadataStore.Change<Published> publish(DatasetState base) {
    SnapshotId id = handle.snapshot;
    // fencing first: a writer that lost its lease learns that, whatever became of its snapshot
    long fence = base.fence(handle.options.lockName());
    if (fence > handle.token) {
      throw new FencedWriterException(dataset.id(), id, handle.token, fence);
    }
    SnapshotInfo building = base.snapshot(id)
        .orElseThrow(() -> new SnapshotNotAvailableException(dataset.id(), id, null));
    if (building.state() != SnapshotState.BUILDING) {
      throw new SnapshotNotAvailableException(dataset.id(), id, building.state());
    }
    Optional<SnapshotId> current = base.current();
    boolean moveCurrent = current.isEmpty() || id.isAfter(current.get());
    if (!moveCurrent && handle.options.sourceKey() == null) {
      throw new SupersededSnapshotException(dataset.id(), id, current.get());
    }
    Instant now = dataset.clock().instant();
    SnapshotInfo committed = building.toBuilder().state(SnapshotState.COMMITTED).committedAt(now)
        .rowCount(rows.rowCount() + extraRows).byteCount(rows.byteCount() + extraBytes)
        .parentId(current.orElse(null)).summary(summary).build();
    DatasetState updated = base.withSnapshot(committed);
    if (moveCurrent) {
      updated = updated.withCurrent(id, new HistoryEntry(now, id, "publish"));
    }
    if (handle.options.runId() != null) {
      updated = updated.withRun(handle.options.runId(), id);
    }
    if (handle.options.sourceKey() != null) {
      updated = updated.withSource(handle.options.sourceKey(), id);
    }
    List<SnapshotInfo> expired = Retention.expirable(updated, dataset.properties().retention(), now);
    return new MetadataStore.Change<>(Retention.expire(updated, expired), new Published(committed, expired));
  }

  private void finishBuildTransaction() {
    try {
      dataset.txClient().commitOrThrow(handle.buildTx);
    } catch (TransactionFailureException | RuntimeException e) {
      // the build transaction wrote nothing transactional; if it timed out it sits in the
      // invalid list, where it has no reason to stay
      LOG.info("build transaction {} of snapshot {} did not commit ({}); removing it from the invalid list",
          handle.buildTx.getTransactionId(), handle.snapshot, e.toString());
      dataset.txClient().truncateInvalidTx(Set.of(handle.buildTx.getTransactionId()));
    }
  }

  @Override
  public void abort() {
    if (alreadyPublished != null || status != Status.OPEN) {
      return;
    }
    abortQuietly();
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
      dataset.abortSnapshot(handle.snapshot, handle.buildTx);
    } catch (RuntimeException e) {
      LOG.warn("aborting snapshot {} failed; cleanup will find it: {}", handle.snapshot, e.toString());
    }
    try {
      dataset.locks().release(keeper.lease());
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
    checkState(status == Status.OPEN, "snapshot %s is %s: no more writes", handle.snapshot, status);
  }
}
