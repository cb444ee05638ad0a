package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.Reconciler;
import io.snapds.dataset.Reconciler.ReconcileResult;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #36 item 3: a live writer keeps its lease for as long as it is alive, also inside
 * {@code begin()}, whose begin transaction (with its retries), pre-split and region moves may take
 * longer than the lease. Here begin is held up inside its begin transaction, past the lease as it
 * was granted, while a second writer waits for the lock and a reconcile pass looks for expired
 * leases to fence. (MapReduce's hand-off from the submission to the application master:
 * {@code SnapshotMapReduceIT.aJobWhoseApplicationMasterStartsAfterTheLeaseWouldHaveLapsedStillPublishes}.)
 */
@ExtendWith(MiniClusterExtension.class)
class LiveWriterKeepsItsLeaseIT {
  private static final Duration LEASE = Duration.ofSeconds(3);

  private final MiniCluster cluster = MiniCluster.get();
  private final HookedTxClient tx = new HookedTxClient(cluster);

  private DatasetId create(String name) {
    DatasetId id = MiniCluster.uniqueDataset(name);
    cluster.datasets().create(id, DatasetProperties.builder().retention(RetentionPolicy.retainLast(10))
        .lockSettings(LockSettings.builder().leaseDuration(LEASE).acquireTimeout(Duration.ofMinutes(3)).build())
        .build());
    return id;
  }

  @Test
  void aBeginThatOutlastsTheLeaseKeepsItFromAWaitingWriterAndAReconcilePass() throws Exception {
    DatasetId id = create("slowbegin");
    SnapshotDataset a = SnapshotDatasets.using(cluster.connection(), tx).open(id);
    SnapshotDataset others = cluster.datasets().open(id);
    SnapshotInfo before = writeAndCommit(others.newSnapshot().owner("before").begin(), "before", 3);

    CompletableFuture<SnapshotInfo> waiting = new CompletableFuture<>();
    AtomicReference<ReconcileResult> pass = new AtomicReference<>();
    AtomicReference<LockLease> granted = new AtomicReference<>();
    // inside A's begin: its lease is granted, its begin transaction not committed yet
    tx.beforeNextConflictCheck(() -> {
      granted.set(others.lockStatus("writer").lease().orElseThrow());
      Thread b = new Thread(() -> {
        try {
          waiting.complete(writeAndCommit(others.newSnapshot().owner("B").begin(), "B", 5));
        } catch (Throwable t) {
          waiting.completeExceptionally(t);
        }
      }, "writer-B");
      b.setDaemon(true);
      b.start();
      await(() -> others.lockStatus("writer").waiters() >= 1 || waiting.isDone()); // B waits for the lock
      // begin takes longer than the lease as it was granted
      await(() -> Instant.now().isAfter(granted.get().expiresAt().plus(Duration.ofMillis(500))));
      pass.set(Reconciler.runOnce(others, "reconciler", Duration.ofHours(1)));
    });
    SnapshotWriter writerA = a.newSnapshot().owner("A").begin();
    assertEquals("A", granted.get().owner(), "the hook ran inside A's begin");
    assertFalse(waiting.isDone(), "B was handed the lock while A was alive: " + waiting);
    SnapshotInfo published = writeAndCommit(writerA, "A", 10);

    assertEquals(SnapshotState.COMMITTED, published.state());
    assertTrue(Fixtures.observe(others.readSnapshot(published.id())).matches(published), "A's rows, all of them");
    assertEquals(10, published.rowCount());
    assertTrue(pass.get().repairs().isEmpty(), "the reconcile pass fenced nothing: " + pass.get().repairs());
    SnapshotInfo b = waiting.get(3, TimeUnit.MINUTES);
    // no grant and no break between A's and B's leases (a break raises the fence above the next token)
    assertEquals(before.fencingToken() + 1, published.fencingToken());
    assertEquals(published.fencingToken() + 1, b.fencingToken(), "B got the lock right after A, and only then");
    assertEquals(published.id(), b.parentId().orElseThrow(), "B began after A published");
    assertTrue(Fixtures.observe(others.readCurrent()).matches(b));
  }

  @Test
  void aBeginThatFailsAfterTheGrantStopsItsHeartbeatAndFreesTheLock() throws Exception {
    DatasetId id = create("failedbegin");
    SnapshotDataset ds = SnapshotDatasets.using(cluster.connection(), tx).open(id);
    String key = "range-" + id.name();
    String heartbeat = "snapds-heartbeat-source/" + key;
    tx.beforeNextConflictCheck(() -> {
      assertEquals(1, heartbeats(heartbeat), "renewed from the grant on");
      throw new IllegalStateException("injected failure inside begin");
    });
    RuntimeException e = assertThrows(RuntimeException.class, () -> ds.newSnapshot().sourceKey(key).begin());
    assertTrue(String.valueOf(e.getMessage()).contains("injected failure inside begin")
        || e.getCause() != null && String.valueOf(e.getCause().getMessage()).contains("injected"), e.toString());
    assertEquals(0, heartbeats(heartbeat), "the failed begin left no heartbeat behind");
    assertTrue(ds.lockStatus("source/" + key).lease().isEmpty(), "and released the lock");
    SnapshotInfo next = writeAndCommit(ds.newSnapshot().sourceKey(key).begin(), "next", 2);
    assertEquals(0, heartbeats(heartbeat), "a published writer leaves no heartbeat behind");
    assertEquals(2, next.rowCount());
  }

  private static long heartbeats(String name) {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().equals(name)).count();
  }

  /** Polls {@code condition} (a lease is a matter of time: this waits for time to pass, or for a waiter). */
  /**
   * ... but not past its build's maximum time: Tephra times the build's transaction out then, and
   * cleanup takes the build for dead, so its heartbeat stops and a waiting writer gets the lock.
   * Before, a writer that stayed open (a stuck or forgotten one) renewed its lease for as long as
   * its process lived, and every other build under its lock waited.
   */
  @Test
  void aWriterPastItsMaximumBuildTimeNoLongerKeepsItsLock() {
    DatasetId id = MiniCluster.uniqueDataset("stuckwriter");
    cluster.datasets().create(id, DatasetProperties.builder().maxBuildTime(Duration.ofSeconds(2))
        .lockSettings(LockSettings.builder().leaseDuration(Duration.ofSeconds(1))
            .heartbeatInterval(Duration.ofMillis(200)).build())
        .build());
    SnapshotDataset ds = cluster.datasets().open(id);
    try (SnapshotWriter stuck = ds.newSnapshot().owner("stuck").begin()) {
      long token = ds.lockStatus("writer").lease().orElseThrow().token();
      // the writer stays open and alive; its lease lapses after its build time and the lease
      await(() -> !ds.lockStatus("writer").isHeld(Instant.now()));
      SnapshotInfo next = writeAndCommit(ds.newSnapshot().owner("next").begin(), "next", 2);
      assertEquals(token + 1, next.fencingToken(), "the next writer got the lock, with the next token");
      assertEquals(next.id(), ds.currentSnapshot().orElseThrow().id());
    }
  }

  private static void await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not reached in 2 minutes");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
