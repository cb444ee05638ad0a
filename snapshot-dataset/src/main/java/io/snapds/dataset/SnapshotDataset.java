package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockStatus;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.store.MetadataView;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionAware;

/**
 * A versioned dataset in HBase whose readers always see one complete snapshot. Open one with
 * {@link SnapshotDatasets#open}; an instance is not thread-safe (open one per thread: it is cheap).
 *
 * <h2>Reading in a transaction</h2>
 * The dataset is a Tephra {@link TransactionAware}. {@link #startTx} resolves the current snapshot
 * as the transaction sees it and pins it: every {@link #get}/{@link #scan} until the transaction
 * ends reads that snapshot, whatever is published meanwhile, and cleanup keeps its rows.
 * <pre>{@code
 * TransactionContext ctx = new TransactionContext(txClient, dataset);
 * ctx.start();                                   // dataset.startTx(tx): pins the current snapshot
 * Optional<SnapshotRow> row = dataset.get(key);  // reads the pinned snapshot
 * try (RowScanner rows = dataset.scan(RowScan.all().prefix(p))) { ... }
 * ctx.finish();                                  // ends the pin
 * }</pre>
 *
 * <h2>Reading without one</h2>
 * {@link #readCurrent()}, {@link #readSnapshot}, {@link #readAsOf} and {@link #readTag} return a
 * reader fixed on one snapshot. Use a {@link ReaderPin} to keep an old snapshot's rows from
 * cleanup while reading it for long.
 *
 * <h2>Writing</h2>
 * {@link #newSnapshot()} begins a snapshot under the writer lock; {@link SnapshotWriter#commit()}
 * publishes it atomically. {@link #sharedBuild} builds a snapshot for a source key once, however
 * many callers ask at the same time.
 *
 * <h2>History</h2>
 * {@link #expireSnapshots()}, {@link #rollbackTo}, {@link #manageTags}, {@link #cleanup()}.
 *
 * <p>This class is a facade: opening a dataset builds its operations context once (metadata store,
 * lock table, data table, transaction client, clock), and each method hands over to an operation
 * built on that context; the operations never call back into the facade (docs/design.md, Layers).
 */
public final class SnapshotDataset implements TransactionAware, SnapshotReader, AutoCloseable {
  private final OperationsContext ops;
  private final DatasetReads reads;

  SnapshotDataset(OperationsContext ops) {
    this.ops = ops;
    this.reads = new DatasetReads(ops);
  }

  public DatasetId id() {
    return ops.id();
  }

  public DatasetProperties properties() {
    return ops.properties();
  }

  // ---- Tephra callbacks: pin the current snapshot for the transaction ----

  @Override
  public void startTx(Transaction transaction) {
    reads.startTx(transaction);
  }

  @Override
  public void updateTx(Transaction transaction) {
    reads.updateTx(transaction);
  }

  @Override
  public Collection<byte[]> getTxChanges() {
    return reads.getTxChanges();
  }

  @Override
  public boolean commitTx() throws Exception {
    return reads.commitTx();
  }

  @Override
  public void postTxCommit() {
    reads.postTxCommit();
  }

  @Override
  public boolean rollbackTx() throws Exception {
    return reads.rollbackTx();
  }

  @Override
  public String getTransactionAwareName() {
    return reads.getTransactionAwareName();
  }

  /** The snapshot the current transaction pinned; empty when the dataset had none yet. */
  public Optional<SnapshotId> pinnedSnapshot() {
    return reads.pinnedSnapshot();
  }

  // ---- SnapshotReader over the pinned snapshot ----

  /** The pinned snapshot's id. */
  @Override
  public SnapshotId snapshotId() {
    return reads.pinned().snapshotId();
  }

  @Override
  public Optional<SnapshotRow> get(byte[] key) {
    return reads.pinned().get(key);
  }

  @Override
  public Optional<SnapshotRow> get(byte[] key, RowScan projection) {
    return reads.pinned().get(key, projection);
  }

  @Override
  public List<Optional<SnapshotRow>> get(List<byte[]> keys) {
    return reads.pinned().get(keys);
  }

  @Override
  public RowScanner scan(RowScan scan) {
    return reads.pinned().scan(scan);
  }

  // ---- readers fixed on one snapshot ----

  /**
   * A reader of the snapshot current now.
   *
   * @throws SnapshotNotAvailableException if nothing was published yet
   */
  public SnapshotReader readCurrent() {
    return reads.readCurrent();
  }

  /** @throws SnapshotNotAvailableException if the snapshot does not exist or is not committed */
  public SnapshotReader readSnapshot(SnapshotId snapshot) {
    return reads.readSnapshot(snapshot);
  }

  /**
   * A reader of the snapshot that was current at {@code time} (time travel through the history).
   *
   * @throws SnapshotNotAvailableException if none was current then, or that one has expired
   */
  public SnapshotReader readAsOf(Instant time) {
    return reads.readAsOf(time);
  }

  /** A reader of the snapshot tagged {@code tag}. */
  public SnapshotReader readTag(String tag) {
    return reads.readTag(tag);
  }

  // ---- diffs ----

  /** {@link #diff(SnapshotSelector, SnapshotSelector, RowScan)} of every row and column. */
  public DiffScanner diff(SnapshotSelector from, SnapshotSelector to) {
    return diff(from, to, RowScan.all());
  }

  /**
   * The rows that differ between two snapshots, in key order: {@link RowChange.Kind#ADDED} (only in
   * {@code to}), {@link RowChange.Kind#REMOVED} (only in {@code from}) or {@link RowChange.Kind#CHANGED}
   * (in both, with other cells on the scan's columns), each with the row as each snapshot holds it.
   * Each selector resolves as a read with it does ({@code current}, by id, by tag, as of a time);
   * the same snapshot twice gives an empty diff. {@code scan} narrows it to a key range or prefix and
   * to columns (a row is changed only if the projected cells differ); its limit counts changes.
   *
   * <p>A merge of one scan of each snapshot, each read as {@link SnapshotReader#scan} reads, with the
   * cleaning check at the end of each; memory holds one row of each side, whatever the number of rows
   * or of changes. Both snapshots are pinned ({@link ReaderPin}) until the scanner is closed or its
   * changes run out: cleanup keeps both while the diff runs. Close it when done.
   *
   * @throws SnapshotNotAvailableException if a selector names no readable snapshot (naming it)
   * @throws SnapshotCleanedException if cleanup has begun deleting either snapshot
   * @throws io.snapds.dataset.schema.SchemaException if the two snapshots' schemas store one projected
   *     field under other names or types (a rename or widening between them), naming the field
   */
  public DiffScanner diff(SnapshotSelector from, SnapshotSelector to, RowScan scan) {
    return SnapshotDiff.open(ops, reads, from, to, scan);
  }

  /** Metadata bytes fetched by this dataset's reads and updates so far (for benchmarks). */
  public long metadataBytesRead() {
    return ops.store().bytesRead();
  }

  /**
   * Metadata read calls (gets, batches of gets, scans) of this dataset's reads and updates so far
   * (for tests and benchmarks: a cost that grows with the snapshots an operation touches shows here).
   */
  public long metadataReadCalls() {
    return ops.store().readCalls();
  }

  // ---- metadata ----

  public Optional<SnapshotInfo> currentSnapshot() {
    return reads.read(MetadataView::currentInfo);
  }

  /**
   * Every snapshot recorded (building, committed, expired, aborted) that the history horizon
   * keeps, newest first.
   */
  public List<SnapshotInfo> snapshots() {
    return List.copyOf(reads.read(MetadataView::snapshots));
  }

  /** Committed snapshots, newest first. */
  public List<SnapshotInfo> retainedSnapshots() {
    return reads.read(MetadataView::retained);
  }

  /**
   * Where {@code snapshot}'s rows are in the data table, for engine adapters that plan their own
   * scans ({@link io.snapds.dataset.read.SplitPlanner}): from its record, read once per process.
   *
   * @throws SnapshotNotAvailableException if no such snapshot is recorded
   */
  public SnapshotKeys keys(SnapshotId snapshot) {
    return ops.keys(checkNotNull(snapshot, "snapshot id must not be null"));
  }

  /**
   * @throws HistoryHorizonException if its record is past the history horizon
   * @throws SnapshotNotAvailableException if no such snapshot was ever recorded
   */
  public SnapshotInfo snapshot(SnapshotId snapshot) {
    return reads.snapshot(snapshot);
  }

  // ---- schemas (io.snapds.dataset.schema) ----

  /** The dataset's current schema; empty for a schema-less dataset (raw byte cells). */
  public Optional<io.snapds.dataset.schema.Schema> schema() {
    return reads.read(DatasetSchemas::current);
  }

  /**
   * The schema a snapshot was written with (the one current when it began); empty when it was
   * written schema-less. Read its rows with {@code new RowCodec(schema, family)}, and
   * {@code SchemaRecord.project} them onto a newer schema.
   *
   * @throws SnapshotNotAvailableException if no such snapshot is recorded
   */
  public Optional<io.snapds.dataset.schema.Schema> schema(SnapshotId snapshot) {
    return reads.read(view -> DatasetSchemas.ofSnapshot(view, ops.id(), snapshot));
  }

  /**
   * Every schema the dataset recorded, by id in ascending order; the last is the current one.
   * Empty for a schema-less dataset. One metadata row per schema change (never per publish).
   */
  public java.util.SortedMap<Integer, io.snapds.dataset.schema.Schema> schemas() {
    return reads.read(DatasetSchemas::all);
  }

  /**
   * Gives a schema-less dataset its first schema (id 1); a no-op if it is already current.
   * Snapshots begun from now on record it. Returns the current schema id.
   *
   * @throws io.snapds.dataset.schema.SchemaException if the dataset has another schema (evolve it)
   */
  public int setSchema(io.snapds.dataset.schema.Schema schema) {
    return DatasetSchemas.create(ops.store(), schema);
  }

  /**
   * Evolves the current schema, for example {@code u -> u.addField("day", Type.DATE)}, by the
   * rules of {@link io.snapds.dataset.schema.SchemaUpdate}; a change records a new schema id,
   * which snapshots begun from now on record. Returns the current schema id.
   *
   * @throws io.snapds.dataset.schema.SchemaException naming the field when a change is refused
   *     (nothing is recorded), or if the dataset has no schema
   */
  public int updateSchema(java.util.function.UnaryOperator<io.snapds.dataset.schema.SchemaUpdate> change) {
    return DatasetSchemas.evolve(ops.store(), change);
  }

  // ---- events (the outbox, docs/events.md) ----

  /**
   * The outbox: up to {@code limit} events after sequence {@code afterSequence} (0 for the first),
   * in sequence order, without gaps; each was written in the transaction of its change. One
   * bounded scan of at most {@code limit} metadata rows. See docs/events.md.
   *
   * @throws EventsPrunedException if events after {@code afterSequence} are past the retained
   *     window ({@code events.retain.last}): the consumer must resync
   */
  public List<DatasetEvent> events(long afterSequence, int limit) {
    return List.copyOf(reads.read(view -> view.events(afterSequence, limit)));
  }

  /**
   * The delivered position recorded under {@code name} by a {@link Relay} or a consumer: the
   * sequence of the newest event it acknowledged (or processed); 0 when none is recorded. One row.
   */
  public long deliveredPosition(String name) {
    return reads.read(view -> view.deliveredPosition(name));
  }

  /**
   * Moves the delivered position of {@code name} forward to {@code sequence} (never back) in one
   * metadata transaction, for a consumer that processed the events up to it; returns the
   * position now recorded. {@link #status()} reports every recorded position.
   *
   * @throws IllegalArgumentException if {@code sequence} is negative or after the last event
   */
  public long advanceDeliveredPosition(String name, long sequence) {
    return Relay.advanceDeliveredPosition(ops, "advance delivered position of " + name, name, sequence);
  }

  /** Every change of the current pointer that the history horizon keeps, oldest first. */
  public List<HistoryEntry> history() {
    return List.copyOf(reads.read(MetadataView::history));
  }

  /** The time of the newest history entry the horizon deleted; empty if none was. */
  public Optional<Instant> historyHorizon() {
    return reads.read(MetadataView::historyHorizon);
  }

  /** The snapshot a run published, if it did. */
  public Optional<SnapshotInfo> snapshotForRun(String runId) {
    return reads.read(view -> view.snapshotForRun(runId).flatMap(view::snapshot));
  }

  /**
   * The snapshot a run is building (BUILDING, begun with {@code runId}), if any: how the tasks of an
   * engine whose driver cannot hand them the snapshot (Hive's) find it. One scan of the building
   * index, which holds the builds in progress only, whatever the history's length.
   */
  public Optional<SnapshotInfo> buildingForRun(String runId) {
    checkArgument(runId != null && !runId.isEmpty(), "run id must not be empty");
    return reads.read(view -> view.building().stream().filter(s -> s.runId().equals(Optional.of(runId))).findFirst());
  }

  /** The committed snapshot recorded for a source key, if any. */
  public Optional<SnapshotInfo> snapshotForSource(String sourceKey) {
    return reads.snapshotForSource(sourceKey);
  }

  // ---- writing ----

  /** Starts configuring a new snapshot; {@link NewSnapshot#begin()} begins it. */
  public NewSnapshot newSnapshot() {
    return new NewSnapshot(ops);
  }

  /**
   * Carries on a snapshot begun elsewhere (see {@link SnapshotWriter#handle()}): its lease gets a
   * heartbeat from this process, and {@link SnapshotWriter#commit()} publishes it.
   *
   * @throws SnapshotNotAvailableException if the snapshot is no longer BUILDING
   */
  public SnapshotWriter resume(SnapshotHandle handle) {
    return SnapshotWriterImpl.resume(ops, snapshot(handle.snapshotId()), handle);
  }

  /**
   * Fails unless {@code snapshot} is BUILDING, as the metadata says now: the read runs in a short
   * transaction of its own, never in a reused one. Workers writing into a snapshot whose writer
   * runs elsewhere call it before each batch they send, so that one that outlived its job (a
   * killed or speculative task attempt) stops once the snapshot is published or aborted. It
   * narrows that race, it does not close it: a batch checked just before the publish may still
   * arrive after it (docs/design.md "Left open"). Costs one metadata read.
   *
   * @throws SnapshotNotAvailableException naming the state, when it is not BUILDING
   */
  public void requireBuilding(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    SnapshotInfo recorded = ops.store().read(view -> view.snapshot(snapshot)).orElseThrow(() ->
        new SnapshotNotAvailableException(ops.id(), snapshot, null));
    SnapshotWriterImpl.requireBuilding(ops.id(), recorded);
  }

  /**
   * A row writer into a snapshot that is BUILDING, for workers of a writer that runs elsewhere
   * (task attempts). It records itself in the lock table before it sends, and what it stored when it
   * closes, so that the writer's commit ({@link SnapshotWriter#countStoredRows}) can sum what the
   * attempts stored instead of counting the stored rows when that sum is exact. A worker that may
   * outlive its writer's commit (a task attempt) calls {@link SnapshotRowWriter#recordAttempt()} and
   * then checks {@link #requireBuilding} before each batch it sends, as
   * {@link io.snapds.dataset.write.SnapshotTaskWriter} does.
   */
  public SnapshotRowWriter openRowWriter(SnapshotId snapshot, long writeBufferBytes) {
    return ops.rowWriter(ops.remember(SnapshotWriterImpl.requireBuilding(ops.id(), snapshot(snapshot))),
        writeBufferBytes).asAttempt(ops.locks(), ops.attemptRecordTtl());
  }

  /**
   * Returns the committed snapshot for {@code sourceKey}, building it with {@code builder} if
   * there is none. Callers with the same key at the same time wait for the first (on the key's
   * own lock) and then get its snapshot; callers with other keys do not wait for it.
   */
  public SharedBuildResult sharedBuild(String sourceKey, SnapshotBuilder builder) {
    checkNotNull(builder, "builder must not be null");
    return NewSnapshot.sharedBuild(ops, snapshotForSource(sourceKey), sourceKey, builder);
  }

  // ---- staged snapshots (write, audit, publish) ----

  /**
   * Publishes a snapshot staged by {@link SnapshotWriter#stage()}: one short transaction makes it
   * current, if the snapshot current now is still the one it was staged on. Publishing a stage
   * published already returns it unchanged, so a retried publish publishes once.
   *
   * @throws StagedBaseMovedException if another snapshot was made current since the stage (nothing changes)
   * @throws SnapshotStateException if it was committed directly, never staged, or was discarded
   * @throws SnapshotNotAvailableException if it does not exist, or is still building or aborted
   */
  public SnapshotInfo publish(SnapshotId staged) {
    return publish(staged, PublishMode.BASE_UNCHANGED);
  }

  /** {@link #publish(SnapshotId)}, replacing whatever is current with {@link PublishMode#REPLACE_CURRENT}. */
  public SnapshotInfo publish(SnapshotId staged, PublishMode mode) {
    checkNotNull(staged, "snapshot id must not be null");
    checkNotNull(mode, "publish mode must not be null");
    StagedPublication publication = new StagedPublication(ops.id(), staged, mode == PublishMode.REPLACE_CURRENT,
        ops.properties().retention(), null);
    Publication.Published published = ops.store().update("publish staged snapshot " + staged, publication::apply);
    Cleanup.fenceAfter(ops, published.expired());
    return published.snapshot();
  }

  /**
   * Discards a staged snapshot: it expires without ever having been current, and cleanup deletes
   * its rows once its readers are gone. Discarding one discarded already changes nothing.
   *
   * @throws SnapshotStateException if it is not staged (a published one is expired instead)
   * @throws SnapshotNotAvailableException if it does not exist
   */
  public SnapshotInfo discard(SnapshotId staged) {
    checkNotNull(staged, "snapshot id must not be null");
    SnapshotInfo discarded = ops.store().update("discard staged snapshot " + staged,
        view -> StagedPublication.discard(ops.id(), view, staged));
    Cleanup.fenceAfter(ops, List.of(discarded));
    return discarded;
  }

  /** The snapshots staged and waiting for an audit, oldest first: one scan of the staged index. */
  public List<SnapshotInfo> stagedSnapshots() {
    return reads.read(io.snapds.dataset.store.MetadataView::staged);
  }

  // ---- history operations ----

  public ExpireSnapshots expireSnapshots() {
    return new ExpireSnapshotsImpl(ops);
  }

  public RollbackTo rollbackTo(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    return new RollbackToImpl(ops, snapshot);
  }

  public ManageTags manageTags(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    return new ManageTagsImpl(ops, snapshot);
  }

  /** Deletes the rows of expired and aborted snapshots that no reader can see any more. */
  public CleanupResult cleanup() {
    return cleanup(CleanupListener.NONE);
  }

  /**
   * The same, telling {@code listener} how far each snapshot's deletes got. Each snapshot's range
   * is deleted region by region on {@link DatasetProperties#cleanupThreads()} threads, and each
   * finished region is recorded, so a cleanup that stops (a crash, an interrupt, a listener that
   * throws) is resumed by the next one where it stopped.
   *
   * @throws CleanupInterruptedException when this thread is interrupted during the deletes
   */
  public CleanupResult cleanup(CleanupListener listener) {
    checkNotNull(listener, "cleanup listener must not be null");
    return new Cleanup(ops).run(listener);
  }

  /** Keeps {@code snapshot}'s rows from cleanup for {@code ttl} (renewable) or until released. */
  public ReaderPin pin(SnapshotId snapshot, String owner, Duration ttl) {
    return reads.pin(snapshot, owner, ttl);
  }

  /**
   * Whether cleanup has begun deleting (or has deleted) {@code snapshot}'s rows: a reader that
   * resumes a snapshot it chose earlier (a Hive query's later stage) must not read it then.
   */
  public boolean isCleaned(SnapshotId snapshot) {
    return reads.isCleaned(snapshot);
  }

  /**
   * Pins the snapshot that is current at the moment the pin holds: resolves the current
   * snapshot, pins it, and reads the current pointer again; if a publish landed in between (and
   * retention may have expired what was pinned), releases that pin and tries again, a bounded
   * number of times. Readers asking for "the current snapshot" (MapReduce, Hive) use this, so a
   * steady stream of publishes does not make them fail.
   *
   * @throws SnapshotNotAvailableException if nothing was published yet, or the current snapshot
   *     changed on every one of 10 attempts
   */
  public ReaderPin pinCurrent(String owner, Duration ttl) {
    return reads.pinCurrent(owner, ttl);
  }

  /**
   * The dataset as an operator sees it now: current snapshot, builds and whether their writers
   * live, locks, what each snapshot awaiting cleanup waits for, and how far each relay and
   * consumer got through the outbox (the {@code o} rows, and the oldest event row when there are any). Changes nothing but the expired waiter and
   * pin rows its counts drop. Reads one
   * metadata transaction (the BUILDING and awaiting-cleanup indexes, one record per transaction
   * in progress) and the lock table's lock rows and the pins of the snapshots awaiting cleanup:
   * bounded by what is in flight, not by history.
   */
  public DatasetStatus status() {
    return reads.status();
  }

  // ---- locks ----

  /** Status of every lock of the dataset (the writer lock and one per source key built). */
  public List<LockStatus> lockStatus() {
    return ops.locks().statusAll();
  }

  public LockStatus lockStatus(String lockName) {
    return ops.locks().status(lockName);
  }

  /**
   * Revokes whatever lease holds the lock, in this order: the dataset's fence for the lock is
   * raised above the holder's token, the holder's BUILDING snapshot is aborted (in the same
   * metadata transaction) and its building transaction invalidated, and only then is the lease
   * freed. So the revoked holder can never publish, not even between the steps, and a break
   * whose fence could not be raised frees nothing (it throws, and the holder keeps its lease).
   * Returns the lease that was revoked, if any. A grant made while breaking is a newer lease and
   * is left alone.
   *
   * @throws CommitConflictException if the fence could not be raised (nothing was changed)
   */
  public Optional<LockLease> breakLock(String lockName) {
    return BreakLock.run(ops, lockName);
  }

  /** For the public entry points of this package that take a dataset (the reconciler, relays). */
  OperationsContext operations() {
    return ops;
  }

  /** Nothing to release: the connection and transaction client belong to the caller. */
  @Override
  public void close() {
    reads.endTx();
  }

  @Override
  public String toString() {
    return "SnapshotDataset{" + ops.id() + "}";
  }
}
