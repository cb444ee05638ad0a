package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.store.DatasetState;
import io.snapds.dataset.store.MetadataStore;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.tephra.Transaction;

/**
 * Begins a snapshot: {@code dataset.newSnapshot().runId("run-42").begin()}. Beginning takes the
 * writer lock (waiting and retrying as the dataset's lock settings say), starts the building
 * transaction whose write pointer becomes the snapshot id, and records the snapshot as BUILDING
 * together with the lease's fencing token.
 *
 * <p>Idempotence: when the run id was published before, or (with a source key) a committed
 * snapshot for that key exists, {@link #begin()} returns a writer whose
 * {@link SnapshotWriter#alreadyPublished()} holds that snapshot, and nothing is built.
 */
public final class NewSnapshot {
  /** The lock all writers without a source key share. */
  public static final String WRITER_LOCK = "writer";
  private static final int MAX_ID_LENGTH = 1024;

  private final SnapshotDataset dataset;
  private final MetadataStore store;
  private String owner = defaultOwner();
  private String runId;
  private String sourceKey;
  private long writeBufferBytes = 4L << 20;

  NewSnapshot(SnapshotDataset dataset, MetadataStore store) {
    this.dataset = dataset;
    this.store = store;
  }

  /** Who writes (shown in lock status and history); defaults to {@code pid@host}. */
  public NewSnapshot owner(String owner) {
    checkArgument(owner != null && !owner.isBlank() && owner.length() <= MAX_ID_LENGTH,
        "owner must be 1-%s characters, got '%s'", MAX_ID_LENGTH, owner);
    this.owner = owner;
    return this;
  }

  /** The pipeline run writing this snapshot; a run id is published at most once. */
  public NewSnapshot runId(String runId) {
    checkArgument(runId != null && !runId.isBlank() && runId.length() <= MAX_ID_LENGTH,
        "run id must be 1-%s characters, got '%s'", MAX_ID_LENGTH, runId);
    this.runId = runId;
    return this;
  }

  /**
   * What the snapshot is built from (for example a time range). Writers of the same key share a
   * lock of their own; a committed snapshot for the key is reused instead of built again.
   */
  public NewSnapshot sourceKey(String sourceKey) {
    checkArgument(sourceKey != null && !sourceKey.isBlank() && sourceKey.length() <= MAX_ID_LENGTH,
        "source key must be 1-%s characters, got '%s'", MAX_ID_LENGTH, sourceKey);
    this.sourceKey = sourceKey;
    return this;
  }

  /** Bytes the writer buffers before sending to HBase (default 4 MiB): bounds its memory. */
  public NewSnapshot writeBufferBytes(long bytes) {
    checkArgument(bytes >= 1024, "write buffer must be >= 1024 bytes, got %s", bytes);
    this.writeBufferBytes = bytes;
    return this;
  }

  /**
   * @throws io.snapds.dataset.lock.LockUnavailableException when the lock could not be had
   *     within the retry policy
   * @throws FencedWriterException when a newer lease began meanwhile
   */
  public SnapshotWriter begin() {
    try {
      return beginOrFail();
    } catch (AccessDeniedException e) {
      throw e.within("begin a snapshot", DatasetRole.WRITER);
    }
  }

  private SnapshotWriter beginOrFail() {
    Optional<SnapshotInfo> existing = published(store.readLatest());
    if (existing.isPresent()) {
      return new SnapshotWriterImpl(dataset, existing.get());
    }
    String lockName = lockName(sourceKey);
    LockLease lease = dataset.locks().acquire(lockName, owner, dataset.properties().lockSettings());
    Transaction buildTx = null;
    try {
      buildTx = dataset.txClient().startShort((int) dataset.properties().maxBuildTime().getSeconds());
      SnapshotId id = SnapshotId.of(buildTx.getWritePointer());
      List<SnapshotId> fencedOut = new ArrayList<>();
      Optional<SnapshotInfo> published = store.update("begin snapshot " + id, (base, tx) -> {
        fencedOut.clear();
        Optional<SnapshotInfo> done = published(base);
        if (done.isPresent()) {
          return new MetadataStore.Change<>(base, done);
        }
        long fence = base.fence(lockName);
        if (fence > lease.token()) {
          throw new FencedWriterException(dataset.id(), id, lease.token(), fence);
        }
        SnapshotInfo building = SnapshotInfo.builder(id).state(SnapshotState.BUILDING)
            .createdAt(dataset.clock().instant()).writer(owner).runId(runId).sourceKey(sourceKey)
            .parentId(base.current().orElse(null)).fencingToken(lease.token()).build();
        DatasetState updated = base.withSnapshot(building).withFence(lockName, lease.token());
        // writers that held this lock before us and never finished can never publish now
        for (SnapshotInfo s : base.snapshots().values()) {
          if (s.state() == SnapshotState.BUILDING && lockName.equals(lockName(s.sourceKey().orElse(null)))) {
            updated = updated.withSnapshot(s.toBuilder().state(SnapshotState.ABORTED).build());
            fencedOut.add(s.id());
          }
        }
        return new MetadataStore.Change<>(updated, Optional.empty());
      });
      for (SnapshotId stale : fencedOut) {
        // its building transaction may never end by itself: end it, so cleanup need not wait
        dataset.txClient().invalidate(stale.value());
      }
      if (published.isPresent()) {
        dataset.txClient().abort(buildTx);
        dataset.locks().release(lease);
        return new SnapshotWriterImpl(dataset, published.get());
      }
      WriterOptions options = new WriterOptions(owner, runId, sourceKey, lockName, writeBufferBytes);
      return new SnapshotWriterImpl(dataset, store, new SnapshotHandle(id, buildTx, options, lease.token()),
          lease, dataset.families());
    } catch (RuntimeException e) {
      if (buildTx != null) {
        dataset.txClient().abort(buildTx);
      }
      dataset.locks().release(lease);
      throw e;
    }
  }

  private Optional<SnapshotInfo> published(DatasetState state) {
    if (runId != null) {
      Optional<SnapshotInfo> run = state.snapshotForRun(runId).flatMap(state::snapshot);
      if (run.isPresent()) {
        return run;
      }
    }
    if (sourceKey != null) {
      return state.snapshotForSource(sourceKey).flatMap(state::snapshot)
          .filter(s -> s.state() == SnapshotState.COMMITTED);
    }
    return Optional.empty();
  }

  static String lockName(String sourceKey) {
    return sourceKey == null ? WRITER_LOCK : "source/" + sourceKey;
  }

  static String defaultOwner() {
    return ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
  }
}
