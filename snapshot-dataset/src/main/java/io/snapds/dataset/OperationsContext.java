package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkState;

import io.micrometer.core.instrument.MeterRegistry;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.CommitClock;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.HBaseMetadataStore;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.PropertiesCodec;
import io.snapds.dataset.store.ReadTransactions;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.tephra.TransactionSystemClient;

/**
 * What every operation of one dataset works on (the role of Iceberg's {@code TableOperations}):
 * the dataset's id and properties, the metadata format it was opened at, its metadata store, lock
 * table, data table, the transaction client, clock and metrics, and the key prefixes seen; nothing
 * else: each action lives in its operation ({@link Cleanup#fenceAfter}, {@link BreakLock},
 * {@link Relay#advanceDeliveredPosition}, the writer's abort). {@link SnapshotDataset} builds one when it is opened and
 * hands it to the operations it returns ({@link NewSnapshot}, {@link SnapshotWriterImpl}, the
 * {@link MetadataUpdate}s, {@link Cleanup}, {@link DatasetReads}, ...); no operation holds the
 * facade.
 *
 * <p>{@link #metadataOnly} gives one over a metadata store alone, for the unit tests of the
 * operations that need nothing else (an {@code InMemoryMetadataStore}).
 */
final class OperationsContext {

  private final DatasetId id;
  private final DatasetProperties properties;
  private final MetadataStore store;
  private final TransactionSystemClient txClient;
  private final Clock clock;
  private final Connection connection;
  private final DataTable data;
  private final LockTable locks;
  /** The metadata format the dataset had when this process opened it ({@code format.version}). */
  private final int format;
  private final DatasetMetrics metrics;
  /**
   * Key prefixes of snapshots this process has seen: a record's key number never changes once its
   * begin committed, so entries never go stale. Bounded: cleared when full.
   */
  private final Map<SnapshotId, SnapshotKeys> keys = new ConcurrentHashMap<>();
  private static final int KEYS_CACHED = 10_000;

  private OperationsContext(DatasetId id, DatasetProperties properties, int format, MetadataStore store,
      TransactionSystemClient txClient, Clock clock, Connection connection, DataTable data, LockTable locks,
      DatasetMetrics metrics) {
    this.metrics = metrics;
    this.format = format;
    this.id = id;
    this.properties = properties;
    this.store = store;
    this.txClient = txClient;
    this.clock = clock;
    this.connection = connection;
    this.data = data;
    this.locks = locks;
  }

  /** The context of a dataset in HBase with its metadata in Tephra transactions. */
  static OperationsContext open(DatasetId id, DatasetProperties properties, int format, Connection connection,
      TransactionSystemClient txClient, Clock clock, CommitClock commitClock,
      Function<TransactionSystemClient, ReadTransactions> readTxs, MeterRegistry registry) {
    // the transaction service's unchecked failures become typed errors naming this dataset
    TransactionSystemClient typed = TypedErrorsTxClient.wrap(id, txClient);
    DatasetMetrics metrics = DatasetMetrics.of(registry, id);
    MetadataStore store = new HBaseMetadataStore(id, connection, typed, properties.commitRetries(), commitClock,
        readTxs.apply(typed)).observedBy(metrics);
    DataTable data = new DataTable(connection, id.dataTable());
    LockTable locks = new LockTable(connection, id.lockTable(), clock, metrics);
    return new OperationsContext(id, properties, format, store, typed, clock, connection, data, locks, metrics);
  }

  /**
   * Tests: a context over {@code store} alone. Operations that touch only the metadata (expire,
   * roll back, tag, relay) work on it; asking it for anything else fails.
   */
  static OperationsContext metadataOnly(DatasetId id, MetadataStore store, Clock clock) {
    return new OperationsContext(id, DatasetProperties.defaults(), PropertiesCodec.FORMAT_VERSION, store, null, clock,
        null, null, null, DatasetMetrics.NONE);
  }

  DatasetId id() {
    return id;
  }

  DatasetProperties properties() {
    return properties;
  }

  /** True when new snapshots get key numbers (metadata format 3 or later). */
  boolean numberedKeys() {
    return format >= PropertiesCodec.NUMBERED_KEYS_FORMAT;
  }

  /**
   * Refuses a stage when the dataset was at a format below 4 as this process opened it: a library
   * of format 3 would fail on a STAGED record and its sweep would delete the stage's rows.
   *
   * @throws MetadataFormatException naming the format found and the one staging needs
   */
  void checkMayStage() {
    if (format < PropertiesCodec.STAGED_FORMAT) {
      throw new MetadataFormatException(id, format, PropertiesCodec.STAGED_FORMAT, "staging a snapshot");
    }
  }

  /**
   * Where {@code snapshot}'s rows are: from the snapshot's record, read once per process (one
   * metadata get) and remembered.
   *
   * @throws SnapshotNotAvailableException if the snapshot has no record
   */
  SnapshotKeys keys(SnapshotId snapshot) {
    SnapshotKeys k = keys.get(snapshot);
    if (k == null) {
      k = remember(store.read(view -> view.snapshot(snapshot)).orElseThrow(() ->
          new SnapshotNotAvailableException(id, snapshot, null)));
    }
    return k;
  }

  /** The keys of {@code record}, remembered for {@link #keys(SnapshotId)}. */
  SnapshotKeys remember(SnapshotInfo record) {
    SnapshotKeys k = record.keys();
    if (keys.size() >= KEYS_CACHED) {
      keys.clear();
    }
    keys.put(record.id(), k);
    return k;
  }

  MetadataStore store() {
    return store;
  }

  /** Where this dataset's operations report their metrics. */
  DatasetMetrics metrics() {
    return metrics;
  }

  Clock clock() {
    return clock;
  }

  TransactionSystemClient txClient() {
    return present(txClient, "transaction client");
  }

  Connection connection() {
    return present(connection, "HBase connection");
  }

  DataTable data() {
    return present(data, "data table");
  }

  LockTable locks() {
    return present(locks, "lock table");
  }

  private <T> T present(T part, String what) {
    checkState(part != null, "this context of dataset %s has only its metadata, no %s", id, what);
    return part;
  }

  /** The dataset's column families, in their order. */
  Set<String> families() {
    return new LinkedHashSet<>(properties.families());
  }

  /**
   * How long a task attempt's record lives in the lock table (HBase's cell TTL): twice the maximum
   * build time, so that a publish within the build time finds every record (design.md "One write
   * protocol"), and a record nobody removed goes.
   */
  java.time.Duration attemptRecordTtl() {
    return properties.maxBuildTime().multipliedBy(2);
  }

  /** A row writer into {@code snapshot} (which the caller checked is BUILDING). */
  SnapshotRowWriter rowWriter(SnapshotKeys snapshot, long writeBufferBytes) {
    return new SnapshotRowWriter(connection(), id, snapshot, families(), writeBufferBytes);
  }
}
