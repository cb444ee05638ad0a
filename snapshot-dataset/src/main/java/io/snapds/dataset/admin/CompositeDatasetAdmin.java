package io.snapds.dataset.admin;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.StorageErrors;
import io.snapds.dataset.DatasetAlreadyExistsException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.DatasetRole;
import io.snapds.dataset.lock.LockStatus;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.StorageException;
import io.snapds.dataset.store.CommitClock;
import io.snapds.dataset.store.DroppedKeyNumbers;
import io.snapds.dataset.store.HBaseMetadataStore;
import io.snapds.dataset.store.MetadataLayout;
import io.snapds.dataset.store.PropertiesCodec;
import io.snapds.dataset.store.RawMetadata;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import io.snapds.dataset.store.MetadataView;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.TransactionSystemClient;

/**
 * The one place that knows a dataset is three tables: data, metadata and lock. Each operation is
 * forwarded to the {@link TableAdmin} of every part; the dataset's properties are written to
 * (and read back from) the metadata table's {@code p} row.
 */
public final class CompositeDatasetAdmin {
  private final DatasetId dataset;
  private final Connection connection;
  private final TransactionSystemClient txClient;
  private final DatasetAccessControl access;

  public CompositeDatasetAdmin(DatasetId dataset, Connection connection) {
    this(dataset, connection, null);
  }

  /** An admin that can also upgrade the metadata format (that needs transactions). */
  public CompositeDatasetAdmin(DatasetId dataset, Connection connection, TransactionSystemClient txClient) {
    this.dataset = dataset;
    this.connection = connection;
    this.txClient = txClient;
    this.access = new DatasetAccessControl(dataset, connection);
  }

  public DatasetId dataset() {
    return dataset;
  }

  /** True when all three tables exist. */
  public boolean exists() {
    return run("check", admin -> {
      for (TableAdmin part : parts(admin, null).all()) {
        if (!part.exists()) {
          return false;
        }
      }
      return true;
    });
  }

  /**
   * Creates the namespace if needed; reads the highest key number a dropped dataset of this name
   * gave ({@link DroppedKeyNumbers}); creates the metadata table and records the properties; commits
   * the dataset's first metadata transaction, which writes its CREATED event (sequence 1) and moves
   * the key number counter above that mark; and only then creates the data and lock tables, so no
   * writer can begin (opening needs all three) below the mark. If a step fails, what was created is
   * dropped again: no dataset without its event. A create cut off in between (a crash) leaves a
   * dataset that does not open ("missing tables"): drop it and create it again. An admin made
   * without a transaction client leaves the event to the next metadata commit, and refuses to
   * create a name that was dropped before (it could not move the counter).
   *
   * @throws DatasetAlreadyExistsException if any of the tables exists already; nothing is changed
   */
  public void create(DatasetProperties properties) {
    run("create", admin -> {
      Parts parts = parts(admin, properties);
      for (TableAdmin part : parts.all()) {
        if (part.exists()) {
          throw new DatasetAlreadyExistsException(dataset);
        }
      }
      ensureNamespace(admin);
      long dropped = DroppedKeyNumbers.highest(admin, connection, dataset);
      if (dropped > 0 && txClient == null) {
        throw new IllegalStateException("dataset " + dataset + " was dropped before, and creating it again needs a"
            + " transaction client (to number its snapshots above the dropped ones): use SnapshotDatasets.admin(id)");
      }
      List<TableAdmin> created = new ArrayList<>();
      try {
        // the metadata table first, with its first commit: no writer can begin (the data and lock
        // tables do not exist yet) before the key numbers continue above the dropped incarnations'
        TableAdmin metadata = parts.metadata();
        metadata.create();
        created.add(metadata);
        writeProperties(properties);
        if (txClient != null) {
          metadataStore(properties).update("create", view -> {
            view.announceCreated();
            view.continueKeyNumbersAbove(dropped);
            return null;
          });
        }
        for (TableAdmin part : parts.all()) {
          if (part != metadata) {
            part.create();
            created.add(part);
          }
        }
      } catch (IOException | RuntimeException e) {
        for (TableAdmin part : created) {
          part.drop(); // leave nothing half-created behind
        }
        throw e;
      }
      return null;
    });
  }

  /** The metadata format version recorded in the properties row. */
  public int formatVersion() {
    return PropertiesCodec.formatVersion(dataset, propertyMap());
  }

  /** The properties recorded at create, validated. */
  public DatasetProperties properties() {
    return PropertiesCodec.decode(dataset, propertyMap());
  }

  private Map<String, String> propertyMap() {
    try (Table meta = connection.getTable(dataset.metaTable())) {
      Result r = meta.get(new Get(MetadataLayout.PROPERTIES_ROW).addFamily(MetadataLayout.FAMILY));
      if (r.isEmpty()) {
        throw new io.snapds.dataset.CorruptMetadataException(dataset, "p", "the properties row is missing");
      }
      Map<String, String> m = new LinkedHashMap<>();
      r.getFamilyMap(MetadataLayout.FAMILY).forEach((k, v) -> m.put(Bytes.toString(k), Bytes.toString(v)));
      return m;
    } catch (IOException e) {
      throw StorageErrors.translate(dataset, "read the properties", e);
    }
  }

  /**
   * Removes every snapshot, keeping the tables, the properties and what must never be given twice.
   * Three steps, each safe to run again, so a truncate that was cut off is finished by running it
   * again:
   * <ol>
   *   <li>one metadata transaction deletes every snapshot record, tag, run and source name, the
   *       history and the schemas, writes the TRUNCATED event and marks the dataset as being
   *       truncated (no snapshot begins until the last step). It keeps the key number counter,
   *       the fences, the outbox and the delivered positions: the new incarnation numbers its
   *       snapshots above every number the old one gave, lock tokens keep rising and events keep
   *       their sequence. It conflicts with every other metadata commit (all write the pointer
   *       row), so a begin either committed before it (its record goes) or sees the mark;</li>
   *   <li>the lock table's cleaning watermark rises to that transaction's write pointer, above
   *       every snapshot the dataset had: a reader of any of them finds its record gone after its
   *       rows and fails ({@link io.snapds.dataset.SnapshotCleanedException}) instead of returning
   *       a short result, whatever it holds (a transaction, a pin, a split); and the locks of the
   *       builds whose records went are broken (they can never publish), so that the next builds
   *       need not wait for their leases, and every task attempt's record is removed;</li>
   *   <li>the data table is truncated (HBase keeps its regions), then the mark is cleared.</li>
   * </ol>
   * A process of the old incarnation that still runs touches only key ranges no new snapshot owns:
   * a stalled writer's later rows land in a gap (the next cleanup sweeps it), its commit finds no
   * record; a cleanup planned before finds no record and deletes nothing. Reader pins in the lock
   * table stay until they are released or expire.
   *
   * @throws IllegalStateException if this admin was made without a transaction client (the
   *     truncate is a metadata commit); nothing is changed
   */
  public void truncate() {
    DatasetProperties properties = properties();
    int format = formatVersion();
    if (format < PropertiesCodec.MIN_FORMAT_VERSION) {
      // format 1 has no outbox, counter or mark to keep, and no library that opens it runs: empty all three
      run("truncate", admin -> {
        for (TableAdmin part : parts(admin, properties).all()) {
          part.truncate();
        }
        writeProperties(properties, PropertiesCodec.MIN_FORMAT_VERSION);
        return null;
      });
      return;
    }
    if (txClient == null) {
      throw new IllegalStateException("truncating dataset " + dataset + " is a metadata commit, which needs a"
          + " transaction client: use SnapshotDatasets.admin(id)");
    }
    // a writer may commit metadata but not truncate the data table: refused before step 1 commits
    checkMayChangeTables("truncate");
    HBaseMetadataStore store = metadataStore(properties);
    List<io.snapds.dataset.SnapshotInfo> removedBuilds = new ArrayList<>();
    long truncation = store.update("truncate", view -> {
      removedBuilds.clear();
      removedBuilds.addAll(view.building());
      return view.resetForTruncate();
    });
    LockTable locks = new LockTable(connection, dataset.lockTable(), Clock.systemUTC());
    locks.raiseWatermark(truncation);
    // the builds whose records went can never publish: their locks are freed for the next builds
    // (conditioned on each build's token, so a lock granted again meanwhile stays)
    for (io.snapds.dataset.SnapshotInfo build : removedBuilds) {
      locks.breakLock(io.snapds.dataset.NewSnapshot.lockName(build.sourceKey().orElse(null)), build.fencingToken());
    }
    // no snapshot whose record went will publish or be cleaned: their tasks' records go too (a
    // straggler's later one expires), and no new build began yet (the mark)
    locks.forgetAllAttempts();
    run("truncate", admin -> {
      parts(admin, properties).data().truncate();
      return null;
    });
    store.update("finish truncate", view -> {
      view.finishTruncate(truncation);
      return null;
    });
  }

  /**
   * Adds what a newer library version needs (missing families, version settings) and upgrades
   * the metadata to the current format in place, keeping every committed snapshot, history
   * entry, tag and run id. Safe to run again. Returns the format version the dataset had.
   *
   * <p>From format 2 to 3 (key numbers, see {@link io.snapds.dataset.SnapshotKeys}) no row
   * changes, but a process of a format-2 library that still has the dataset open would read and
   * clean the new snapshots at the wrong key range and find no rows: stop every process of an
   * older library first. A build that holds a writer lock is one: the upgrade refuses to run while
   * any lease is held.
   *
   * @throws IllegalStateException if the metadata needs upgrading and this admin was made
   *     without a transaction client, or a writer holds a lease
   */
  public int upgrade() {
    DatasetProperties properties = properties();
    int format = formatVersion();
    if (format < PropertiesCodec.FORMAT_VERSION) {
      Instant now = Instant.now();
      List<String> held = new LockTable(connection, dataset.lockTable(), Clock.systemUTC()).statusAll().stream()
          .filter(l -> l.isHeld(now)).map(LockStatus::lockName).toList();
      if (!held.isEmpty()) {
        throw new IllegalStateException("dataset " + dataset + " has builds running (writer locks " + held
            + " held): stop every process that uses it with an older library, let the builds end, and run the upgrade"
            + " to format " + PropertiesCodec.FORMAT_VERSION + " again");
      }
    }
    run("upgrade", admin -> {
      for (TableAdmin part : parts(admin, properties).all()) {
        part.upgrade();
      }
      return null;
    });
    if (format < PropertiesCodec.FORMAT_VERSION) {
      if (txClient == null) {
        throw new IllegalStateException("upgrading dataset " + dataset + " from metadata format " + format
            + " needs a transaction client: use SnapshotDatasets.admin(id)");
      }
      if (format < PropertiesCodec.MIN_FORMAT_VERSION) {
        metadataStore(properties).upgradeFromFormat1();
      } else {
        // 2 to 3 changes no row: snapshots begun from now on get key numbers, those there keep their prefix
        metadataStore(properties).recordUpgrade();
      }
      run("record the format of", admin -> {
        writeProperties(properties);
        return null;
      });
    }
    return format;
  }

  /**
   * Gives {@code principal} (an HBase user, or {@code @group}) exactly {@code role} on this
   * dataset, replacing whatever it held on the dataset's tables. Needs HBase's ADMIN permission
   * on the tables (or a superuser); HBase propagates the change to every server within moments.
   *
   * @throws io.snapds.dataset.AccessDeniedException if the caller may not grant
   */
  public void grant(String principal, DatasetRole role) {
    checkArgument(principal != null && !principal.isBlank(), "principal must not be empty, got '%s'", principal);
    checkNotNull(role, "role must not be null");
    access.grant(principal, role);
  }

  /** Takes away everything {@code principal} holds on the dataset's tables (and the admin role's namespace CREATE). */
  public void revoke(String principal) {
    checkArgument(principal != null && !principal.isBlank(), "principal must not be empty, got '%s'", principal);
    access.revoke(principal);
  }

  /** Who may do what with the dataset, by principal name. */
  public List<PrincipalAccess> permissions() {
    return access.permissions();
  }

  /**
   * Drops the dataset: {@link #beginDrop()}, then {@link #finishDrop()}. Returns true when the
   * tables are gone; false when some relay or consumer has not yet acknowledged the DROPPED event
   * (the dataset stays, marked as being dropped, and the reconciler deletes the tables once they
   * have). Dropping what is gone is a no-op that returns true.
   */
  public boolean drop() {
    beginDrop();
    return finishDrop().isEmpty();
  }

  /**
   * The first step of a drop: commits the DROPPED event and the mark "being dropped" in one
   * metadata transaction (no change that writes an event commits after it). Safe to run again;
   * returns the sequence of the DROPPED event, or 0 when no event can be written: no metadata
   * table or properties (a half-created dataset), metadata format 1, or an admin without a
   * transaction client.
   */
  public long beginDrop() {
    Optional<HBaseMetadataStore> store = metadataStoreIfUsable();
    if (store.isEmpty()) {
      return 0;
    }
    checkMayDeleteTables();
    store.get().update("drop", view -> {
      view.markDropped();
      return null;
    });
    return store.get().read(MetadataView::droppedSequence);
  }

  /**
   * The second step of a drop: deletes whichever of the three tables exist, once every recorded
   * delivered position (relays and consumers, row {@code o}) reached the DROPPED event, so that
   * the outbox outlives the dataset until its last event was delivered. Returns the positions
   * still short of it, by name; empty when the tables were deleted. A consumer that will never
   * come back is let go with {@link io.snapds.dataset.Relay#skipTo} (moving its position to the
   * DROPPED event's sequence).
   *
   * @throws IllegalStateException if the dataset has an outbox and {@link #beginDrop()} did not run
   */
  public SortedMap<String, Long> finishDrop() {
    Optional<HBaseMetadataStore> store = metadataStoreIfUsable();
    if (store.isPresent()) {
      SortedMap<String, Long> behind = store.get().read(view -> {
        long dropped = view.droppedSequence();
        if (dropped == 0) {
          throw new IllegalStateException("dataset " + dataset + " is not being dropped: drop() or beginDrop() first");
        }
        SortedMap<String, Long> short_ = new TreeMap<>();
        view.deliveredPositions().forEach((name, at) -> {
          if (at < dropped) {
            short_.put(name, at);
          }
        });
        return short_;
      });
      if (!behind.isEmpty()) {
        return behind;
      }
    }
    run("drop", admin -> {
      if (admin.tableExists(dataset.metaTable())) {
        enableMetadataLeftDisabled(admin);
        // before any table goes: a create of this name numbers above every number given
        DroppedKeyNumbers.raise(admin, connection, dataset, RawMetadata.highestKeyNumber(connection, dataset));
      }
      for (TableAdmin part : parts(admin, null).all()) {
        part.drop();
      }
      return null;
    });
    return new TreeMap<>();
  }

  /**
   * Refuses a caller who could commit DROPPED (a writer) but not delete the tables, before anything
   * commits: with authorization on, each table is flushed first, which HBase allows to exactly
   * those who may delete it (ADMIN or CREATE on the table or its namespace). A writer's drop thus
   * fails with {@link io.snapds.dataset.AccessDeniedException} naming the admin role, and the
   * dataset stays usable.
   */
  private void checkMayDeleteTables() {
    checkMayChangeTables("drop");
  }

  /**
   * Refuses, before anything commits, a caller who may write the tables but not truncate, delete
   * or flush them (a writer): with authorization on, each table is flushed, which HBase allows to
   * exactly those (ADMIN or CREATE on the table or its namespace).
   */
  private void checkMayChangeTables(String operation) {
    run(operation, admin -> {
      if (!org.apache.hadoop.hbase.security.access.AccessControlClient.isAuthorizationEnabled(connection)) {
        return null;
      }
      for (org.apache.hadoop.hbase.TableName t : List.of(dataset.dataTable(), dataset.metaTable(),
          dataset.lockTable())) {
        if (admin.tableExists(t)) {
          admin.flush(t);
        }
      }
      return null;
    });
  }

  /**
   * A drop cut off while deleting the tables (its process died between disabling the metadata
   * table and deleting it) leaves it disabled: enabled again, it is read as a drop must read it
   * (the DROPPED event, the key numbers to keep) before it goes. (The library disables it nowhere
   * else but in a format-1 truncate's table truncation, which HBase enables again.)
   */
  private void enableMetadataLeftDisabled(Admin admin) throws IOException {
    if (admin.isTableDisabled(dataset.metaTable())) {
      admin.enableTable(dataset.metaTable());
    }
  }

  /** A metadata store for the outbox, when the metadata table holds format-2 metadata and transactions are at hand. */
  private Optional<HBaseMetadataStore> metadataStoreIfUsable() {
    if (txClient == null) {
      return Optional.empty();
    }
    try (Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(dataset.metaTable())) {
        return Optional.empty();
      }
      enableMetadataLeftDisabled(admin);
      try (Table meta = connection.getTable(dataset.metaTable())) {
        Result r = meta.get(new Get(MetadataLayout.PROPERTIES_ROW).addFamily(MetadataLayout.FAMILY));
        if (r.isEmpty()) {
          return Optional.empty();
        }
      }
    } catch (IOException e) {
      throw StorageErrors.translate(dataset, "drop", e);
    }
    if (formatVersion() < PropertiesCodec.MIN_FORMAT_VERSION) {
      return Optional.empty();
    }
    return Optional.of(metadataStore(properties()));
  }

  private HBaseMetadataStore metadataStore(DatasetProperties properties) {
    return new HBaseMetadataStore(dataset, connection, txClient, properties.commitRetries(),
        CommitClock.TRANSACTION_MANAGER);
  }

  /** A dataset's three tables, each with its families. */
  private record Parts(TableAdmin data, TableAdmin metadata, TableAdmin lock) {
    List<TableAdmin> all() {
      return List.of(data, metadata, lock);
    }
  }

  private Parts parts(Admin admin, DatasetProperties properties) {
    List<ColumnFamilyDescriptor> dataFamilies = new ArrayList<>();
    if (properties != null) {
      for (String f : properties.families()) {
        dataFamilies.add(ColumnFamilyDescriptorBuilder.of(f));
      }
    }
    // every version of a metadata cell is kept: Tephra visibility is decided on the client
    ColumnFamilyDescriptor meta = ColumnFamilyDescriptorBuilder.newBuilder(MetadataLayout.FAMILY)
        .setMaxVersions(Integer.MAX_VALUE).setInMemory(true).build();
    // lock rows are deleted (idle locks, waiters, pins) and written again, often within one
    // millisecond of the region server's clock: a delete marker must hide only what was written
    // before it, not a grant of its millisecond (HBASE-15968)
    ColumnFamilyDescriptor lock = ColumnFamilyDescriptorBuilder.newBuilder(LockTable.FAMILY)
        .setMaxVersions(1).setInMemory(true).setNewVersionBehavior(true).build();
    // reader pins have a family of their own, so that readers may write them and nothing else
    ColumnFamilyDescriptor pins = ColumnFamilyDescriptorBuilder.newBuilder(LockTable.PIN_FAMILY)
        .setMaxVersions(1).setInMemory(true).setNewVersionBehavior(true).build();
    return new Parts(
        new HBaseTableAdmin(admin, dataset.dataTable(), dataFamilies),
        new HBaseTableAdmin(admin, dataset.metaTable(), List.of(meta)),
        new HBaseTableAdmin(admin, dataset.lockTable(), List.of(lock, pins)));
  }

  private void ensureNamespace(Admin admin) throws IOException {
    try {
      admin.getNamespaceDescriptor(dataset.namespace());
    } catch (org.apache.hadoop.hbase.security.AccessDeniedException e) {
      // reading a namespace's descriptor needs its ADMIN; the admin role has CREATE only. If the
      // namespace is missing, creating the first table says so (DatasetNotFoundException).
    } catch (NamespaceNotFoundException e) {
      try {
        admin.createNamespace(NamespaceDescriptor.create(dataset.namespace()).build());
      } catch (org.apache.hadoop.hbase.NamespaceExistException raced) {
        // created concurrently: fine
      }
    }
  }

  private void writeProperties(DatasetProperties properties) throws IOException {
    writeProperties(properties, PropertiesCodec.FORMAT_VERSION);
  }

  private void writeProperties(DatasetProperties properties, int formatVersion) throws IOException {
    Put put = new Put(MetadataLayout.PROPERTIES_ROW);
    PropertiesCodec.encode(properties, formatVersion).forEach((k, v) ->
        put.addColumn(MetadataLayout.FAMILY, Bytes.toBytes(k), Bytes.toBytes(v)));
    try (Table meta = connection.getTable(dataset.metaTable())) {
      meta.put(put);
    }
  }

  private interface AdminAction<T> {
    T run(Admin admin) throws IOException;
  }

  private <T> T run(String what, AdminAction<T> action) {
    try (Admin admin = connection.getAdmin()) {
      return action.run(admin);
    } catch (IOException e) {
      throw StorageErrors.translate(dataset, what, e);
    } catch (io.snapds.dataset.AccessDeniedException e) {
      // a check needs only to read; changing the tables is the admin's
      throw what.equals("check") ? e : e.within(what, DatasetRole.ADMIN);
    }
  }
}
