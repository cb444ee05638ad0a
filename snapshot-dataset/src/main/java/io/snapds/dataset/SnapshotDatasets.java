package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.snapds.dataset.admin.CompositeDatasetAdmin;
import io.snapds.dataset.store.CommitClock;
import io.snapds.dataset.store.PropertiesCodec;
import io.snapds.dataset.store.ReadTransactions;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.tephra.TransactionSystemClient;

/**
 * The entry point: snapshot datasets on one HBase connection with one Tephra transaction client.
 * <pre>{@code
 * SnapshotDatasets datasets = SnapshotDatasets.using(connection, txClient);
 * SnapshotDataset prices = datasets.create(DatasetId.of("shop", "prices"), DatasetProperties.defaults());
 * }</pre>
 * The connection and the transaction client stay the caller's to close.
 */
public final class SnapshotDatasets {
  private final Connection connection;
  private final TransactionSystemClient txClient;
  private final Clock clock;
  private final CommitClock commitClock;
  private final Duration readReuse;
  private final LongSupplier nanoTime;
  /** Empty: the process-wide {@link SnapshotMetrics#registry()}. */
  private final MeterRegistry metrics;

  private SnapshotDatasets(Connection connection, TransactionSystemClient txClient, Clock clock,
      CommitClock commitClock) {
    this(connection, txClient, clock, commitClock, Duration.ZERO, System::nanoTime, null);
  }

  private SnapshotDatasets(Connection connection, TransactionSystemClient txClient, Clock clock,
      CommitClock commitClock, Duration readReuse, LongSupplier nanoTime, MeterRegistry metrics) {
    this.metrics = metrics;
    this.readReuse = readReuse;
    this.nanoTime = nanoTime;
    this.connection = checkNotNull(connection, "connection");
    this.txClient = checkNotNull(txClient, "transaction client");
    // metadata stores milliseconds: a coarser clock keeps what is returned equal to what is read
    this.clock = Clock.tick(checkNotNull(clock, "clock"), Duration.ofMillis(1));
    this.commitClock = checkNotNull(commitClock, "commit clock");
  }

  public static SnapshotDatasets using(Connection connection, TransactionSystemClient txClient) {
    return new SnapshotDatasets(connection, txClient, Clock.systemUTC(), CommitClock.TRANSACTION_MANAGER);
  }

  /**
   * The same, with another clock for this process (lease expiry, creation times), as a writer
   * whose clock is off would have. Commit times never come from it: they come from the
   * transaction manager's clock, which all writers share.
   */
  public SnapshotDatasets withClock(Clock clock) {
    return new SnapshotDatasets(connection, txClient, clock, commitClock, readReuse, nanoTime, metrics);
  }

  /**
   * Tests only: commit times (history, retention by age) from {@code clock} instead of the
   * transaction manager's, so that a test can let hours pass. Still kept monotonic.
   */
  public SnapshotDatasets withTestCommitClock(Clock clock) {
    return new SnapshotDatasets(connection, txClient, this.clock, CommitClock.of(
        Clock.tick(checkNotNull(clock, "clock"), Duration.ofMillis(1))), readReuse, nanoTime, metrics);
  }

  /**
   * The same, with metadata reads outside a transaction ({@code currentSnapshot()},
   * {@code readCurrent()}, {@code history()}, {@code status()}, ...) of each opened dataset
   * sharing one Tephra transaction for up to {@code window}, instead of starting and aborting
   * one per read: for a process that reads a dataset many times a second. The price is that a
   * publish by <em>another process</em> is seen up to {@code window} late; everything committed
   * in this process is seen at once. Pins, fencing and the checks of writers always read afresh.
   * Default {@link Duration#ZERO} (every read fresh).
   *
   * @throws IllegalArgumentException if {@code window} is negative or longer than 10 seconds
   */
  public SnapshotDatasets withMetadataReadReuse(Duration window) {
    return withMetadataReadReuse(window, System::nanoTime);
  }

  /** Tests: the same, with the time the window is measured by ({@link System#nanoTime()} otherwise). */
  public SnapshotDatasets withMetadataReadReuse(Duration window, LongSupplier nanoTime) {
    checkNotNull(window, "window");
    checkArgument(!window.isNegative() && window.compareTo(ReadTransactions.MAX_WINDOW) <= 0,
        "metadata read reuse window must be between 0 and %s, not %s", ReadTransactions.MAX_WINDOW, window);
    return new SnapshotDatasets(connection, txClient, clock, commitClock, window, checkNotNull(nanoTime, "nanoTime"),
        metrics);
  }

  /**
   * The same, with the datasets opened from it reporting their metrics to {@code registry} instead
   * of the process-wide {@link SnapshotMetrics#registry()} (and its default JMX registry). The
   * meters are listed in docs/operations.md; each carries the tag {@code dataset=namespace:name}.
   */
  public SnapshotDatasets withMetrics(MeterRegistry registry) {
    return new SnapshotDatasets(connection, txClient, clock, commitClock, readReuse, nanoTime,
        checkNotNull(registry, "registry"));
  }

  public Connection connection() {
    return connection;
  }

  public TransactionSystemClient transactionClient() {
    return txClient;
  }

  public CompositeDatasetAdmin admin(DatasetId id) {
    return new CompositeDatasetAdmin(checkNotNull(id, "dataset id"), connection, txClient);
  }

  public boolean exists(DatasetId id) {
    return admin(id).exists();
  }

  /**
   * Creates the dataset's tables and opens it.
   *
   * @throws DatasetAlreadyExistsException if it exists; nothing is changed
   */
  public SnapshotDataset create(DatasetId id, DatasetProperties properties) {
    checkNotNull(properties, "properties");
    // a build time the transaction service refuses would fail every begin(): refuse it now
    txClient.abort(NewSnapshot.startBuild(txClient, id, properties.maxBuildTime()));
    admin(id).create(properties);
    return open(id);
  }

  /**
   * Opens a dataset after checking that its three tables exist and its properties are valid.
   *
   * @throws DatasetNotFoundException if a table is missing
   * @throws CorruptMetadataException if the properties row is missing or invalid
   */
  public SnapshotDataset open(DatasetId id) {
    CompositeDatasetAdmin admin = admin(id);
    try (Admin hbase = connection.getAdmin()) {
      List<String> missing = new ArrayList<>();
      for (TableName t : List.of(id.dataTable(), id.metaTable(), id.lockTable())) {
        if (!hbase.tableExists(t)) {
          missing.add(t.getNameAsString());
        }
      }
      if (missing.size() == 3) {
        throw new DatasetNotFoundException(id, "");
      }
      if (!missing.isEmpty()) {
        throw new DatasetNotFoundException(id, "missing tables " + missing
            + " (drop and create the dataset again, or restore them)");
      }
    } catch (IOException e) {
      throw StorageErrors.translate(id, "open", e);
    }
    int format = admin.formatVersion();
    if (format < PropertiesCodec.MIN_FORMAT_VERSION) {
      throw new MetadataFormatException(id, format, PropertiesCodec.MIN_FORMAT_VERSION);
    }
    return new SnapshotDataset(OperationsContext.open(id, admin.properties(), format, connection, txClient, clock, commitClock,
        c -> readReuse.isZero() ? ReadTransactions.fresh(c) : ReadTransactions.reusing(c, readReuse, nanoTime),
        metrics == null ? SnapshotMetrics.registry() : metrics));
  }

  /**
   * Several datasets published in one transaction: all of their snapshots become current, or
   * none does. See {@link PublishGroup}. Every member must be opened from this object (or one
   * with the same transaction client).
   */
  public PublishGroup publishTogether() {
    return new PublishGroup(txClient);
  }

  /**
   * Rolls a publish group back in every member together, in one transaction: each member's current
   * snapshot must still be the one the group published, and each goes back to that snapshot's
   * parent (the snapshot the group replaced), which must still be retained. Either every member
   * moves back or none does.
   *
   * @return the snapshot each member is back on
   * @throws IllegalArgumentException if a member's current snapshot is not of the group, or has no retained parent
   */
  public Map<DatasetId, SnapshotId> rollbackGroup(String groupId, SnapshotDataset... members) {
    List<OperationsContext> contexts = new ArrayList<>();
    for (SnapshotDataset member : members) {
      contexts.add(checkNotNull(member, "dataset must not be null").operations());
    }
    return GroupRollback.rollback(txClient, groupId, contexts);
  }

  /** Datasets in every namespace: those whose metadata table exists. */
  public List<DatasetId> list() {
    List<DatasetId> out = new ArrayList<>();
    try (Admin hbase = connection.getAdmin()) {
      for (TableName t : hbase.listTableNames()) {
        String q = t.getQualifierAsString();
        if (q.endsWith(".meta")) {
          out.add(DatasetId.of(t.getNamespaceAsString(), q.substring(0, q.length() - ".meta".length())));
        }
      }
    } catch (IOException e) {
      throw new StorageException("listing datasets", e);
    }
    out.sort((a, b) -> a.toString().compareTo(b.toString()));
    return out;
  }

  /**
   * Deletes a namespace whose datasets were all dropped, with the namespace's table of dropped key
   * numbers ({@code S:snapds.dropped}, which a drop leaves so that a dataset created again numbers
   * above the dropped one: docs/design.md, "Incarnations"). A namespace created again starts
   * without those marks, so delete none while a process of a dataset dropped in it may still run.
   *
   * @throws IllegalStateException naming the datasets still in the namespace; nothing is deleted
   * @throws StorageException if HBase refuses (the namespace holds tables of other applications)
   */
  public void dropNamespace(String namespace) {
    checkNotNull(namespace, "namespace must not be null");
    List<DatasetId> left = list().stream().filter(d -> d.namespace().equals(namespace)).toList();
    if (!left.isEmpty()) {
      throw new IllegalStateException("namespace " + namespace + " still holds datasets " + left
          + ": drop them first");
    }
    try (Admin hbase = connection.getAdmin()) {
      TableName marks = io.snapds.dataset.store.DroppedKeyNumbers.table(namespace);
      if (hbase.tableExists(marks)) {
        if (hbase.isTableEnabled(marks)) {
          hbase.disableTable(marks);
        }
        hbase.deleteTable(marks);
      }
      hbase.deleteNamespace(namespace);
    } catch (IOException e) {
      throw new StorageException("dropping namespace " + namespace, e);
    }
  }

  /** The properties format this library writes. */
  public static int formatVersion() {
    return PropertiesCodec.FORMAT_VERSION;
  }
}
