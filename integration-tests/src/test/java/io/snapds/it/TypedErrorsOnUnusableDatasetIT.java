package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.DatasetUnavailableException;
import io.snapds.dataset.TransactionServiceUnavailableException;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.tx.LocalTransactionService;
import io.snapds.dataset.lock.LockSettings;
import java.time.Duration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * Issue #10 item 9 and part of 14: every public operation on a dropped, disabled or unreachable
 * dataset fails with the library's typed exception naming the dataset; none lets a raw
 * {@code UncheckedIOException} or a Tephra {@code RuntimeException} escape.
 */
@ExtendWith(MiniClusterExtension.class)
class TypedErrorsOnUnusableDatasetIT {
  private final MiniCluster cluster = MiniCluster.get();

  private static <T extends Throwable> T assertTyped(Class<T> type, SnapshotDataset ds, Executable call) {
    Throwable e = assertThrows(Throwable.class, call);
    assertTrue(type.isInstance(e), () -> "expected " + type.getSimpleName() + " but got " + e);
    assertTrue(e.getMessage().contains(ds.id().toString()), () -> "message names the dataset: " + e.getMessage());
    return type.cast(e);
  }

  @Test
  void everyOperationOnADroppedDatasetSaysItIsNotFound() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("dropped"), DatasetProperties.defaults());
    SnapshotInfo first = writeAndCommit(ds.newSnapshot().begin(), "first", 5);
    SnapshotReader reader = ds.readCurrent();
    SnapshotWriter open = ds.newSnapshot().begin();
    open.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("v"));
    cluster.datasets().admin(ds.id()).drop();

    DatasetNotFoundException begin = assertTyped(DatasetNotFoundException.class, ds, () -> ds.newSnapshot().begin());
    assertTrue(begin.getMessage().startsWith("dataset " + ds.id() + " not found: table " + ds.id().metaTable()
        + " is missing"), begin.getMessage());
    assertTyped(DatasetNotFoundException.class, ds, ds::readCurrent);
    assertTyped(DatasetNotFoundException.class, ds, ds::snapshots);
    assertTyped(DatasetNotFoundException.class, ds, ds::history);
    assertTyped(DatasetNotFoundException.class, ds, ds::cleanup);
    assertTyped(DatasetNotFoundException.class, ds, ds::lockStatus);
    assertTyped(DatasetNotFoundException.class, ds, () -> ds.pin(first.id(), "reader", Duration.ofMinutes(1)));
    assertTyped(DatasetNotFoundException.class, ds, () -> ds.expireSnapshots().retainLast(1).commit());
    assertTyped(DatasetNotFoundException.class, ds, () -> ds.rollbackTo(first.id()).commit());
    assertTyped(DatasetNotFoundException.class, ds, () -> count(reader));
    assertTyped(DatasetNotFoundException.class, ds, () -> reader.get(Fixtures.key(1)));
    assertTyped(DatasetNotFoundException.class, ds, open::commit);
    assertTyped(DatasetNotFoundException.class, ds, () -> cluster.datasets().open(ds.id()));
  }

  /**
   * A writer still open when its dataset is dropped: its next heartbeat finds the lock table
   * gone. It must stop beating (before, it retried every interval for as long as the process
   * lived) and its commit must say the dataset is not found.
   */
  @Test
  void theHeartbeatOfAWriterWhoseDatasetWasDroppedStops() throws Exception {
    LockSettings quick = LockSettings.builder().leaseDuration(Duration.ofSeconds(3))
        .heartbeatInterval(Duration.ofMillis(200)).build();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("dropped"),
        DatasetProperties.builder().lockSettings(quick).build());
    String sourceKey = "heartbeat-" + ds.id().name();
    SnapshotWriter open = ds.newSnapshot().sourceKey(sourceKey).begin();
    assertEquals(1, heartbeats(sourceKey), "the writer's heartbeat runs");
    cluster.datasets().admin(ds.id()).drop();

    // a bounded wait for an event (a beat comes every 200 ms), not a measure of speed
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (heartbeats(sourceKey) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertEquals(0, heartbeats(sourceKey), "the heartbeat of a writer whose dataset was dropped stopped");
    assertTyped(DatasetNotFoundException.class, ds, open::commit);
  }

  /** Live heartbeat threads of the lock whose name contains {@code part}. */
  private static long heartbeats(String part) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("snapds-heartbeat-") && t.getName().contains(part))
        .count();
  }

  @Test
  void readsOfADisabledDataTableSayTheDatasetIsUnavailableAndWorkAgainOnceEnabled() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("disabled"), DatasetProperties.defaults());
    SnapshotInfo first = writeAndCommit(ds.newSnapshot().begin(), "first", 5);
    try (Admin admin = cluster.connection().getAdmin()) {
      admin.disableTable(ds.id().dataTable());
      try {
        DatasetUnavailableException scan = assertTyped(DatasetUnavailableException.class, ds,
            () -> count(ds.readCurrent()));
        assertTrue(scan.getMessage().contains("table " + ds.id().dataTable() + " is disabled"), scan.getMessage());
        assertTyped(DatasetUnavailableException.class, ds, () -> ds.readCurrent().get(Fixtures.key(1)));
      } finally {
        admin.enableTable(ds.id().dataTable());
      }
    }
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(first), "nothing changed while it was disabled");
  }

  @Test
  void operationsWhileTheTransactionServiceIsDownFailTyped() {
    LocalTransactionService tx = LocalTransactionService.inMemory(cluster.configuration());
    SnapshotDatasets datasets = SnapshotDatasets.using(cluster.connection(), tx.client());
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("txdown"), DatasetProperties.defaults());
    SnapshotInfo first = writeAndCommit(ds.newSnapshot().begin(), "first", 3);
    SnapshotWriter open = ds.newSnapshot().begin();
    tx.close();

    assertTyped(TransactionServiceUnavailableException.class, ds, () -> ds.newSnapshot().begin());
    assertTyped(TransactionServiceUnavailableException.class, ds, ds::readCurrent);
    assertTyped(TransactionServiceUnavailableException.class, ds, ds::cleanup);
    assertTyped(TransactionServiceUnavailableException.class, ds, () -> ds.expireSnapshots().retainLast(1).commit());
    assertTyped(TransactionServiceUnavailableException.class, ds, open::commit);
    // nothing committed was touched: the published snapshot's rows are all there
    try (RowScanner rows = new DataTable(cluster.connection(), ds.id().dataTable()).scan(first.keys(), RowScan.all())) {
      assertEquals(3, java.util.stream.StreamSupport.stream(rows.spliterator(), false).count());
    }
  }

  private static long count(SnapshotReader reader) {
    long n = 0;
    try (RowScanner rows = reader.scan(RowScan.all())) {
      for (var ignored : rows) {
        n++;
      }
    }
    return n;
  }

}
