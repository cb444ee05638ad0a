package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.lock.LeaseKeeper;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionSystemClient;

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

  private final OperationsContext ops;
  private final MetadataStore store;
  private String owner = defaultOwner();
  private String runId;
  private String sourceKey;
  private long writeBufferBytes = 4L << 20;

  NewSnapshot(OperationsContext ops) {
    this.ops = ops;
    this.store = ops.store();
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
    // NUL ends a lock name in the lock table's waiter rows: "a" and "a\0b" would share them
    checkArgument(sourceKey.indexOf('\0') < 0, "source key must not contain NUL (\\0), got '%s'",
        sourceKey.replace("\0", "\\0"));
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
    String lockName = lockName(sourceKey);
    Latest latest = store.read(view -> new Latest(published(view, runId, sourceKey), view.fence(lockName)));
    if (latest.published().isPresent()) {
      return new SnapshotWriterImpl(ops, latest.published().get());
    }
    // a token above the recorded fence, even when the lock table forgot its tokens
    LockLease lease = ops.locks().acquire(lockName, owner, ops.properties().lockSettings(),
        latest.fence());
    // renewed from the grant on: what follows (the begin transaction and its retries, the
    // pre-split and its region moves) may take longer than the lease, and a lease that lapsed
    // here would be taken over, or broken by a reconcile pass, under a writer that is alive. The
    // writer takes the keeper over; every other way out of here stops it
    // ... for at most the build's time: Tephra times the build out then, and cleanup takes it for dead
    LeaseKeeper keeper = new LeaseKeeper(ops.locks(), lease, ops.properties().lockSettings(),
        ops.properties().maxBuildTime());
    Transaction buildTx = null;
    try {
      buildTx = startBuild(ops.txClient(), ops.id(), ops.properties().maxBuildTime());
      SnapshotId id = SnapshotId.of(buildTx.getWritePointer());
      List<SnapshotId> fencedOut = new ArrayList<>();
      List<SnapshotKeys> parent = new ArrayList<>(1);
      List<SnapshotInfo> begun = new ArrayList<>(1);
      Optional<SnapshotInfo> published = store.update("begin snapshot " + id, view -> {
        fencedOut.clear();
        parent.clear();
        begun.clear();
        Optional<SnapshotInfo> done = published(view, runId, sourceKey);
        if (done.isPresent()) {
          return done;
        }
        if (view.truncating() != 0) { // its data table is being emptied: rows written now could go with it
          throw new DatasetUnavailableException(ops.id(), "begin snapshot", "the dataset is being truncated (mark "
              + view.truncating() + "); if no truncate is running any more, it was cut off: run truncate() again");
        }
        // the parent is the current record (one row): a corrupt one stops writers before they build
        Optional<SnapshotInfo> current = view.currentInfo();
        SnapshotInfo building = SnapshotInfo.builder(id).state(SnapshotState.BUILDING)
            .createdAt(ops.clock().instant()).writer(owner).runId(runId).sourceKey(sourceKey)
            .parentId(current.map(SnapshotInfo::id).orElse(null)).fencingToken(lease.token())
            .keyNumber(numbered(view) ? view.nextKeyNumber() : 0).build();
        fencedOut.addAll(begin(view, ops.id(), building, lockName, lease.token()));
        current.ifPresent(c -> parent.add(c.keys()));
        begun.add(building);
        return Optional.empty();
      });
      ops.metrics().fenced(fencedOut.size());
      for (SnapshotId stale : fencedOut) {
        // its building transaction may never end by itself: end it, so cleanup need not wait
        ops.txClient().invalidate(stale.value());
      }
      if (published.isPresent()) {
        keeper.close();
        ops.txClient().abort(buildTx);
        ops.locks().release(keeper.lease());
        return new SnapshotWriterImpl(ops, published.get());
      }
      // before the first row: the build's writes spread over the regions its parent had (or the
      // dataset's first split points). The keeper renews the lease meanwhile; the budget (half
      // the lease) only bounds how long begin() spends on it
      SnapshotKeys keys = ops.remember(begun.get(0));
      Presplit.apply(ops.connection(), ops.id().dataTable(), parent.stream().findFirst(), keys,
          ops.properties(), ops.properties().lockSettings().leaseDuration().dividedBy(2));
      WriterOptions options = new WriterOptions(owner, runId, sourceKey, lockName, writeBufferBytes);
      return new SnapshotWriterImpl(ops, new SnapshotHandle(id, buildTx, options, lease.token()), keeper);
    } catch (RuntimeException | Error e) {
      keeper.close(); // idempotent: stopped here whatever step failed, before the lease is released
      try {
        if (buildTx != null) {
          ops.txClient().abort(buildTx);
        }
      } catch (RuntimeException abortFailure) {
        e.addSuppressed(abortFailure);
      }
      try {
        ops.locks().release(keeper.lease());
      } catch (RuntimeException releaseFailure) {
        e.addSuppressed(releaseFailure);
      }
      throw e;
    }
  }

  /**
   * Whether the snapshot begun in {@code view} gets a key number: in a dataset at format 3 (as
   * this process opened it), and in one whose upgrade this process has not seen but another
   * process has, once that process numbered a snapshot (the pointer row says so).
   */
  private boolean numbered(MetadataView view) {
    return ops.numberedKeys() || view.lastKeyNumber() > 0;
  }

  /**
   * The shared build (see {@link SnapshotDataset#sharedBuild}): {@code existing} is the committed
   * snapshot the caller found for {@code sourceKey} before taking its lock, if any.
   */
  static SharedBuildResult sharedBuild(OperationsContext ops, Optional<SnapshotInfo> existing, String sourceKey,
      SnapshotBuilder builder) {
    if (existing.isPresent()) {
      return new SharedBuildResult(existing.get(), false);
    }
    try (SnapshotWriter writer = new NewSnapshot(ops).sourceKey(sourceKey).begin()) {
      if (writer.alreadyPublished().isPresent()) {
        return new SharedBuildResult(writer.alreadyPublished().get(), false);
      }
      try {
        builder.build(writer);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new SnapshotDatasetException("building snapshot for source key '" + sourceKey + "' failed", e);
      }
      return new SharedBuildResult(writer.commit(), true);
    }
  }

  /**
   * The snapshot already published (or staged: {@link SnapshotWriter#alreadyPublished()} then
   * returns it STAGED) for the run id, or committed for the source key.
   */
  static Optional<SnapshotInfo> published(MetadataView view, String runId, String sourceKey) {
    if (runId != null) {
      Optional<SnapshotInfo> run = Publication.earlierOfRun(view, runId); // published, or staged
      if (run.isPresent()) {
        return run;
      }
    }
    if (sourceKey != null) {
      return view.snapshotForSource(sourceKey).flatMap(view::snapshot)
          .filter(s -> s.state() == SnapshotState.COMMITTED);
    }
    return Optional.empty();
  }

  /**
   * The begin rule: refuses a lease older than the lock's fence, records {@code building} and
   * raises the fence to its token, and aborts the snapshots still BUILDING under the same lock
   * (their writers can never publish now). Returns the ids it aborted.
   */
  static List<SnapshotId> begin(MetadataView view, DatasetId dataset, SnapshotInfo building, String lockName,
      long token) {
    long fence = view.fence(lockName);
    if (fence > token) {
      throw new FencedWriterException(dataset, building.id(), token, fence);
    }
    List<SnapshotId> fencedOut = new ArrayList<>();
    for (SnapshotInfo s : view.building()) {
      if (lockName.equals(lockName(s.sourceKey().orElse(null)))) {
        view.putSnapshot(s.toBuilder().state(SnapshotState.ABORTED).build());
        fencedOut.add(s.id());
      }
    }
    // the snapshot is written with the schema current when it begins (none: schema-less)
    view.putSnapshot(building.toBuilder().schemaId(view.currentSchemaId().orElse(null)).build());
    view.putFence(lockName, token);
    return fencedOut;
  }

  /**
   * Starts a building transaction whose timeout is the dataset's max build time.
   *
   * @throws IllegalArgumentException naming the max build time when the transaction service
   *     refuses a timeout that long (above its {@code data.tx.max.timeout}, whose value Tephra's
   *     refusal quotes)
   */
  static Transaction startBuild(TransactionSystemClient txClient, DatasetId dataset, Duration maxBuildTime) {
    try {
      return txClient.startShort((int) maxBuildTime.getSeconds());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("max build time " + maxBuildTime + " (" + maxBuildTime.getSeconds()
          + " s) of dataset " + dataset + " is refused by the transaction service: " + e.getMessage()
          + "; lower the dataset's build.max.time or raise Tephra's data.tx.max.timeout", e);
    }
  }

  /** What a writer reads before it takes the lock: a snapshot its run or key published, and the lock's fence. */
  private record Latest(Optional<SnapshotInfo> published, long fence) {}

  /** The writer lock a build of {@code sourceKey} (null: none) takes. */
  public static String lockName(String sourceKey) {
    return sourceKey == null ? WRITER_LOCK : "source/" + sourceKey;
  }

  static String defaultOwner() {
    return ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
  }
}
