package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockStatus;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.CommitClock;
import io.snapds.dataset.store.HBaseMetadataStore;
import io.snapds.dataset.store.ReadTransactions;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionAware;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.TransactionType;

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
 */
public final class SnapshotDataset implements TransactionAware, SnapshotReader, AutoCloseable {
  private final DatasetId id;
  private final DatasetProperties properties;
  private final Connection connection;
  private final TransactionSystemClient txClient;
  private final Clock clock;
  private final MetadataStore store;
  private final DataTable data;
  private final LockTable locks;
  private final Cleanup cleanup;
  private final TransactionAware metaView;
  private Transaction tx;
  private MetadataView txView;
  /** The reader pin of a long transaction (see {@link #LONG_TX_PIN_TTL}). */
  private ReaderPin txPin;

  SnapshotDataset(DatasetId id, DatasetProperties properties, Connection connection,
      TransactionSystemClient txClient, Clock clock, CommitClock commitClock,
      Function<TransactionSystemClient, ReadTransactions> readTxs) {
    this.id = id;
    this.properties = properties;
    this.connection = connection;
    // the transaction service's unchecked failures become typed errors naming this dataset
    this.txClient = TypedErrorsTxClient.wrap(id, txClient);
    this.clock = clock;
    this.store = new HBaseMetadataStore(id, connection, this.txClient, properties.commitRetries(), commitClock,
        readTxs.apply(this.txClient));
    this.data = new DataTable(connection, id.dataTable());
    this.locks = new LockTable(connection, id.lockTable(), clock);
    this.cleanup = new Cleanup(id, store, data, locks, this.txClient, clock, new MetadataPruner(id, store, properties, locks),
        properties.cleanupThreads(),
        new EmptyRegionMerger(id, store, connection, properties.mergeEmptyRegions(), Duration.ofMinutes(1)));
    this.metaView = store.newTransactionAware();
  }

  public DatasetId id() {
    return id;
  }

  public DatasetProperties properties() {
    return properties;
  }

  // ---- Tephra callbacks: pin the current snapshot for the transaction ----

  /**
   * How long the reader pin of a long transaction lasts if its process dies without ending it.
   * Cleanup does not wait for long transactions (other applications run them for hours), so a
   * long transaction that reads this dataset says so with a pin.
   */
  static final Duration LONG_TX_PIN_TTL = Duration.ofDays(1);

  @Override
  public void startTx(Transaction transaction) {
    metaView.startTx(transaction);
    this.tx = transaction;
    this.txView = store.view(metaView);
    Optional<SnapshotId> current = txView.current(); // resolve the pin now: one row, the pointer
    if (transaction.getType() == TransactionType.LONG && current.isPresent()) {
      txPin = new ReaderPin(locks, id, clock, current.get(), "long-tx:" + transaction.getTransactionId(),
          LONG_TX_PIN_TTL);
    }
  }

  @Override
  public void updateTx(Transaction transaction) {
    metaView.updateTx(transaction);
    this.tx = transaction;
  }

  @Override
  public Collection<byte[]> getTxChanges() {
    return metaView.getTxChanges();
  }

  @Override
  public boolean commitTx() throws Exception {
    return metaView.commitTx();
  }

  @Override
  public void postTxCommit() {
    try {
      metaView.postTxCommit();
    } finally {
      endTx();
    }
  }

  @Override
  public boolean rollbackTx() throws Exception {
    try {
      return metaView.rollbackTx();
    } finally {
      endTx();
    }
  }

  private void endTx() {
    tx = null;
    txView = null;
    if (txPin != null) {
      ReaderPin pin = txPin;
      txPin = null;
      pin.close();
    }
  }

  @Override
  public String getTransactionAwareName() {
    return "snapshot-dataset:" + id;
  }

  /** The snapshot the current transaction pinned; empty when the dataset had none yet. */
  public Optional<SnapshotId> pinnedSnapshot() {
    checkState(tx != null, "no transaction: call startTx (or use readCurrent()) first");
    return txView.current();
  }

  private SnapshotReader pinned() {
    SnapshotId pinned = pinnedSnapshot().orElseThrow(() -> new SnapshotNotAvailableException(id,
        "dataset " + id + " has no published snapshot yet"));
    return reader(pinned);
  }

  // ---- SnapshotReader over the pinned snapshot ----

  /** The pinned snapshot's id. */
  @Override
  public SnapshotId snapshotId() {
    return pinned().snapshotId();
  }

  @Override
  public Optional<SnapshotRow> get(byte[] key) {
    return pinned().get(key);
  }

  @Override
  public Optional<SnapshotRow> get(byte[] key, RowScan projection) {
    return pinned().get(key, projection);
  }

  @Override
  public List<Optional<SnapshotRow>> get(List<byte[]> keys) {
    return pinned().get(keys);
  }

  @Override
  public RowScanner scan(RowScan scan) {
    return pinned().scan(scan);
  }

  // ---- readers fixed on one snapshot ----

  /**
   * A reader of the snapshot current now.
   *
   * @throws SnapshotNotAvailableException if nothing was published yet
   */
  public SnapshotReader readCurrent() {
    SnapshotId current = read(MetadataView::current).orElseThrow(() -> new SnapshotNotAvailableException(id,
        "dataset " + id + " has no published snapshot yet"));
    return reader(current);
  }

  /** @throws SnapshotNotAvailableException if the snapshot does not exist or is not committed */
  public SnapshotReader readSnapshot(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    return reader(read(view -> readable(view, snapshot)).id());
  }

  /**
   * A reader of the snapshot that was current at {@code time} (time travel through the history).
   *
   * @throws SnapshotNotAvailableException if none was current then, or that one has expired
   */
  public SnapshotReader readAsOf(Instant time) {
    checkNotNull(time, "time must not be null");
    return reader(read(view -> {
      HistoryEntry asOf = view.currentAt(time).orElseThrow(() -> view.historyHorizon().isPresent()
          ? new HistoryHorizonException(id, "time " + time)
          : new SnapshotNotAvailableException(id, "dataset " + id + " had no current snapshot at " + time));
      return readable(view, asOf.snapshot());
    }).id());
  }

  /** A reader of the snapshot tagged {@code tag}. */
  public SnapshotReader readTag(String tag) {
    return reader(read(view -> readable(view, view.tagged(tag).orElseThrow(() ->
        new SnapshotNotAvailableException(id, "dataset " + id + " has no snapshot tagged '" + tag + "'")).id())).id());
  }

  /** A reader of {@code snapshot} that fails rather than return rows cleanup may have cut short. */
  private SnapshotReader reader(SnapshotId snapshot) {
    return new FixedSnapshotReader(data, snapshot, new CleanedCheck(locks, id, snapshot,
        tx != null ? CleanedCheck.IN_TRANSACTION : CleanedCheck.NO_TRANSACTION));
  }

  private SnapshotInfo readable(MetadataView view, SnapshotId snapshot) {
    SnapshotInfo s = record(view, snapshot);
    if (!s.state().isReadable()) {
      throw new SnapshotNotAvailableException(id, snapshot, s.state());
    }
    return s;
  }

  private SnapshotInfo record(MetadataView view, SnapshotId snapshot) {
    return view.snapshot(snapshot).orElseThrow(() -> view.pastHorizon(snapshot)
        ? new HistoryHorizonException(id, "snapshot " + snapshot)
        : new SnapshotNotAvailableException(id, snapshot, null));
  }

  /**
   * Inside a transaction, reads the metadata it sees; outside, the latest (as of the metadata
   * read reuse window of {@link SnapshotDatasets#withMetadataReadReuse}, if one is set).
   */
  private <T> T read(Function<MetadataView, T> reader) {
    return txView != null ? reader.apply(txView) : store.readRecent(reader);
  }

  /** Metadata bytes fetched by this dataset's reads and updates so far (for benchmarks). */
  public long metadataBytesRead() {
    return store.bytesRead();
  }

  // ---- metadata ----

  public Optional<SnapshotInfo> currentSnapshot() {
    return read(MetadataView::currentInfo);
  }

  /**
   * Every snapshot recorded (building, committed, expired, aborted) that the history horizon
   * keeps, newest first.
   */
  public List<SnapshotInfo> snapshots() {
    return List.copyOf(read(MetadataView::snapshots));
  }

  /** Committed snapshots, newest first. */
  public List<SnapshotInfo> retainedSnapshots() {
    return read(MetadataView::retained);
  }

  /**
   * @throws HistoryHorizonException if its record is past the history horizon
   * @throws SnapshotNotAvailableException if no such snapshot was ever recorded
   */
  public SnapshotInfo snapshot(SnapshotId snapshot) {
    return read(view -> record(view, snapshot));
  }

  // ---- schemas (io.snapds.dataset.schema) ----

  /** The dataset's current schema; empty for a schema-less dataset (raw byte cells). */
  public Optional<io.snapds.dataset.schema.Schema> schema() {
    return read(DatasetSchemas::current);
  }

  /**
   * The schema a snapshot was written with (the one current when it began); empty when it was
   * written schema-less. Read its rows with {@code new RowCodec(schema, family)}, and
   * {@code SchemaRecord.project} them onto a newer schema.
   *
   * @throws SnapshotNotAvailableException if no such snapshot is recorded
   */
  public Optional<io.snapds.dataset.schema.Schema> schema(SnapshotId snapshot) {
    return read(view -> DatasetSchemas.ofSnapshot(view, id, snapshot));
  }

  /**
   * Every schema the dataset recorded, by id in ascending order; the last is the current one.
   * Empty for a schema-less dataset. One metadata row per schema change (never per publish).
   */
  public java.util.SortedMap<Integer, io.snapds.dataset.schema.Schema> schemas() {
    return read(DatasetSchemas::all);
  }

  /**
   * Gives a schema-less dataset its first schema (id 1); a no-op if it is already current.
   * Snapshots begun from now on record it. Returns the current schema id.
   *
   * @throws io.snapds.dataset.schema.SchemaException if the dataset has another schema (evolve it)
   */
  public int setSchema(io.snapds.dataset.schema.Schema schema) {
    return DatasetSchemas.create(store, schema);
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
    return DatasetSchemas.evolve(store, change);
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
    return List.copyOf(read(view -> view.events(afterSequence, limit)));
  }

  /**
   * The delivered position recorded under {@code name} by a {@link Relay} or a consumer: the
   * sequence of the newest event it acknowledged (or processed); 0 when none is recorded. One row.
   */
  public long deliveredPosition(String name) {
    return read(view -> view.deliveredPosition(name));
  }

  /**
   * Moves the delivered position of {@code name} forward to {@code sequence} (never back) in one
   * metadata transaction, for a consumer that processed the events up to it; returns the
   * position now recorded. {@link #status()} reports every recorded position.
   *
   * @throws IllegalArgumentException if {@code sequence} is negative or after the last event
   */
  public long advanceDeliveredPosition(String name, long sequence) {
    return store.update("advance delivered position of " + name, view -> Relay.advance(view, name, sequence));
  }

  /** Every change of the current pointer that the history horizon keeps, oldest first. */
  public List<HistoryEntry> history() {
    return List.copyOf(read(MetadataView::history));
  }

  /** The time of the newest history entry the horizon deleted; empty if none was. */
  public Optional<Instant> historyHorizon() {
    return read(MetadataView::historyHorizon);
  }

  /** The snapshot a run published, if it did. */
  public Optional<SnapshotInfo> snapshotForRun(String runId) {
    return read(view -> view.snapshotForRun(runId).flatMap(view::snapshot));
  }

  /** The committed snapshot recorded for a source key, if any. */
  public Optional<SnapshotInfo> snapshotForSource(String sourceKey) {
    return read(view -> view.snapshotForSource(sourceKey).flatMap(view::snapshot)
        .filter(i -> i.state().isReadable()));
  }

  // ---- writing ----

  /** Starts configuring a new snapshot; {@link NewSnapshot#begin()} begins it. */
  public NewSnapshot newSnapshot() {
    return new NewSnapshot(this, store);
  }

  /**
   * Carries on a snapshot begun elsewhere (see {@link SnapshotWriter#handle()}): its lease gets a
   * heartbeat from this process, and {@link SnapshotWriter#commit()} publishes it.
   *
   * @throws SnapshotNotAvailableException if the snapshot is no longer BUILDING
   */
  public SnapshotWriter resume(SnapshotHandle handle) {
    SnapshotInfo s = snapshot(handle.snapshotId());
    if (s.state() != SnapshotState.BUILDING) {
      throw new SnapshotNotAvailableException(id, handle.snapshotId(), s.state());
    }
    LockLease lease = new LockLease(handle.options.lockName(), handle.options.owner(), handle.token,
        clock.instant(), clock.instant().plus(properties.lockSettings().leaseDuration()));
    return new SnapshotWriterImpl(this, store, handle, lease, families());
  }

  /**
   * A row writer into a snapshot that is BUILDING, for workers of a writer that runs elsewhere
   * (MapReduce tasks). Its counts go to the writer through {@link SnapshotWriter#addCounts}.
   */
  public SnapshotRowWriter openRowWriter(SnapshotId snapshot, long writeBufferBytes) {
    SnapshotInfo s = snapshot(snapshot);
    if (s.state() != SnapshotState.BUILDING) {
      throw new SnapshotNotAvailableException(id, snapshot, s.state());
    }
    return rowWriter(snapshot, writeBufferBytes);
  }

  SnapshotRowWriter rowWriter(SnapshotId snapshot, long writeBufferBytes) {
    return new SnapshotRowWriter(connection, id, snapshot, families(), writeBufferBytes);
  }

  Set<String> families() {
    return new LinkedHashSet<>(properties.families());
  }

  /**
   * Returns the committed snapshot for {@code sourceKey}, building it with {@code builder} if
   * there is none. Callers with the same key at the same time wait for the first (on the key's
   * own lock) and then get its snapshot; callers with other keys do not wait for it.
   */
  public SharedBuildResult sharedBuild(String sourceKey, SnapshotBuilder builder) {
    checkNotNull(builder, "builder must not be null");
    Optional<SnapshotInfo> existing = snapshotForSource(sourceKey);
    if (existing.isPresent()) {
      return new SharedBuildResult(existing.get(), false);
    }
    try (SnapshotWriter writer = newSnapshot().sourceKey(sourceKey).begin()) {
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

  // ---- history operations ----

  public ExpireSnapshots expireSnapshots() {
    return new ExpireSnapshotsImpl(id, store, this::fenceForCleanup);
  }

  public RollbackTo rollbackTo(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    return new RollbackToImpl(id, store, snapshot);
  }

  public ManageTags manageTags(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    return new ManageTagsImpl(id, store, snapshot);
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
    return cleanup.run(listener);
  }

  /** Keeps {@code snapshot}'s rows from cleanup for {@code ttl} (renewable) or until released. */
  public ReaderPin pin(SnapshotId snapshot, String owner, Duration ttl) {
    checkNotNull(snapshot, "snapshot id must not be null");
    checkArgument(owner != null && !owner.isBlank(), "pin owner must not be empty");
    read(view -> readable(view, snapshot));
    ReaderPin pin = new ReaderPin(locks, id, clock, snapshot, owner, ttl);
    // pin first, then check again: an expiry and cleanup between the first check and the pin
    // row would otherwise go unnoticed; after the pin row exists, cleanup leaves the rows alone
    try {
      store.read(view -> readable(view, snapshot));
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
    return pin;
  }

  /**
   * Whether cleanup has begun deleting (or has deleted) {@code snapshot}'s rows: a reader that
   * resumes a snapshot it chose earlier (a Hive query's later stage) must not read it then.
   */
  public boolean isCleaned(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    // a record past the horizon was deleted only after its snapshot had been cleaned
    return locks.isCleaning(snapshot) || read(view -> view.snapshot(snapshot)
        .map(s -> s.cleanedAt().isPresent()).orElseGet(() -> view.pastHorizon(snapshot)));
  }

  /** How many times {@link #pinCurrent} resolves and pins again when publishes keep landing. */
  static final int PIN_CURRENT_ATTEMPTS = 10;

  /**
   * Pins the snapshot that is current at the moment the pin holds: resolves the current
   * snapshot, pins it, and reads the current pointer again; if a publish landed in between (and
   * retention may have expired what was pinned), releases that pin and tries again, a bounded
   * number of times. Readers asking for "the current snapshot" (MapReduce, Hive) use this, so a
   * steady stream of publishes does not make them fail.
   *
   * @throws SnapshotNotAvailableException if nothing was published yet, or the current snapshot
   *     changed on every one of {@value #PIN_CURRENT_ATTEMPTS} attempts
   */
  public ReaderPin pinCurrent(String owner, Duration ttl) {
    checkArgument(owner != null && !owner.isBlank(), "pin owner must not be empty");
    SnapshotId current = currentId();
    for (int attempt = 1; attempt <= PIN_CURRENT_ATTEMPTS; attempt++) {
      ReaderPin pin = new ReaderPin(locks, id, clock, current, owner, ttl);
      SnapshotId now;
      try {
        now = currentId();
      } catch (RuntimeException e) {
        pin.close();
        throw e;
      }
      if (now.equals(current)) {
        return pin; // current while pinned: no cleanup can take it from here on
      }
      pin.close();
      current = now;
    }
    throw new SnapshotNotAvailableException(id, "the current snapshot of " + id + " changed on each of "
        + PIN_CURRENT_ATTEMPTS + " attempts to pin it (last " + current + "); publishes land faster than a pin"
        + " is taken: retry, or pin an explicit snapshot id");
  }

  private SnapshotId currentId() {
    return read(MetadataView::current).orElseThrow(() -> new SnapshotNotAvailableException(id,
        "dataset " + id + " has no published snapshot yet"));
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
    List<LockStatus> lockRows = locks.statusAll();
    return read(view -> {
      Instant now = clock.instant();
      List<DatasetStatus.Build> builds = new java.util.ArrayList<>();
      for (SnapshotInfo s : view.building()) {
        String lock = NewSnapshot.lockName(s.sourceKey().orElse(null));
        boolean held = lockRows.stream().anyMatch(l -> l.lockName().equals(lock) && l.isHeld(now)
            && l.lease().get().token() == s.fencingToken());
        builds.add(new DatasetStatus.Build(s, lock, view.transaction().isInProgress(s.id().value()), held));
      }
      List<DatasetStatus.Delivery> deliveries = new java.util.ArrayList<>();
      java.util.SortedMap<String, Long> positions = view.deliveredPositions();
      long lastEvent = view.lastEventSequence();
      long oldestEvent = positions.isEmpty() ? 0 : view.oldestEventSequence();
      positions.forEach((name, at) -> deliveries.add(new DatasetStatus.Delivery(name, at, lastEvent, oldestEvent)));
      return new DatasetStatus(id, now, view.currentInfo(), builds, lockRows, Cleanup.backlog(view, locks), lastEvent,
          deliveries);
    });
  }

  // ---- locks ----

  /** Status of every lock of the dataset (the writer lock and one per source key built). */
  public List<LockStatus> lockStatus() {
    return locks.statusAll();
  }

  public LockStatus lockStatus(String lockName) {
    return locks.status(lockName);
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
    checkArgument(lockName != null && !lockName.isEmpty(), "lock name must not be empty");
    Optional<LockLease> holder = locks.status(lockName).lease();
    if (holder.isEmpty()) {
      return Optional.empty();
    }
    long token = holder.get().token();
    List<SnapshotId> aborted = store.update("fence broken lock " + lockName, view -> {
      if (view.fence(lockName) <= token) {
        view.putFence(lockName, token + 1);
      }
      List<SnapshotId> revoked = new java.util.ArrayList<>();
      for (SnapshotInfo s : view.building()) {
        if (s.fencingToken() <= token && lockName.equals(NewSnapshot.lockName(s.sourceKey().orElse(null)))) {
          view.putSnapshot(s.toBuilder().state(SnapshotState.ABORTED)
              .cleanupFence(view.transaction().getWritePointer()).build());
          revoked.add(s.id());
        }
      }
      return revoked;
    });
    for (SnapshotId s : aborted) {
      txClient.invalidate(s.value()); // its building transaction may never end by itself
    }
    locks.breakLock(lockName, token);
    return holder;
  }

  // ---- for the parts of this package ----

  Connection connection() {
    return connection;
  }

  LockTable locks() {
    return locks;
  }

  MetadataStore store() {
    return store;
  }

  TransactionSystemClient txClient() {
    return txClient;
  }

  Clock clock() {
    return clock;
  }

  void fenceForCleanup(List<SnapshotInfo> expired) {
    if (!expired.isEmpty()) {
      cleanup.markFences();
    }
  }

  /**
   * Marks a snapshot aborted (with a cleanup fence) and ends its building transaction. Its rows
   * are left to {@link #cleanup()}, which deletes aborted snapshots without waiting for readers
   * (none could read them): an abort costs the same whatever the snapshot's size.
   */
  void abortSnapshot(SnapshotId snapshot, Transaction buildTx) {
    try {
      store.update("abort snapshot " + snapshot, view -> {
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
      txClient.abort(buildTx);
    }
  }

  /** Nothing to release: the connection and transaction client belong to the caller. */
  @Override
  public void close() {
    endTx();
  }

  @Override
  public String toString() {
    return "SnapshotDataset{" + id + "}";
  }
}
