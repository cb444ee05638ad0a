package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.FencedWriterException;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.lock.LockStatus;
import io.snapds.dataset.lock.LockTimeoutException;
import io.snapds.dataset.lock.TooManyWaitersException;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The writer lock: status, break, bounded waiting, takeover of dead writers, fencing. */
@ExtendWith(MiniClusterExtension.class)
class LockIT {
  private final MiniCluster cluster = MiniCluster.get();

  private SnapshotDataset create(String name, LockSettings lock) {
    return cluster.datasets().create(MiniCluster.uniqueDataset(name),
        DatasetProperties.builder().lockSettings(lock).build());
  }

  @Test
  void statusShowsTheHolderAndBreakingFencesIt() {
    SnapshotDataset ds = create("status", LockSettings.DEFAULT);
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 2);
    SnapshotWriter w = ds.newSnapshot().owner("job-7").begin();
    LockStatus status = ds.lockStatus("writer");
    assertTrue(status.isHeld(Instant.now()));
    LockLease lease = status.lease().orElseThrow();
    assertEquals("job-7", lease.owner());
    assertEquals(2, lease.token(), "second grant of the lock");
    assertEquals(0, status.waiters());

    assertEquals(lease.token(), ds.breakLock("writer").orElseThrow().token());
    assertFalse(ds.lockStatus("writer").isHeld(Instant.now()));
    w.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("late"));
    FencedWriterException e = assertThrows(FencedWriterException.class, w::commit);
    assertEquals(2, e.token());
    assertEquals(before.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(SnapshotState.ABORTED, ds.snapshot(w.snapshotId()).state());
    SnapshotInfo next = writeAndCommit(ds.newSnapshot().begin(), "next", 1);
    // grants go above the recorded fence (3 after the break), so the next one is 4 and not fenced
    assertEquals(4, ds.snapshot(next.id()).fencingToken(), "the next grant is not fenced");
  }

  @Test
  void waitingIsBoundedInTimeAndInNumber() throws Exception {
    SnapshotDataset ds = create("bounded", LockSettings.builder().acquireTimeout(Duration.ofMillis(300))
        .maxWaiters(1).retryAttempts(1).build());
    SnapshotWriter holder = ds.newSnapshot().owner("holder").begin();
    LockTimeoutException timeout = assertThrows(LockTimeoutException.class, () -> ds.newSnapshot().begin());
    assertTrue(timeout.getMessage().startsWith("timed out after PT0.3S waiting for lock 'writer', held by 'holder' (token 1) since "),
        timeout.getMessage());
    assertEquals("holder", timeout.holder().orElseThrow().owner());

    // one caller queues with a long timeout of its own (through the lock table), filling the room
    io.snapds.dataset.lock.LockTable table = new io.snapds.dataset.lock.LockTable(cluster.connection(),
        ds.id().lockTable(), java.time.Clock.systemUTC());
    CompletableFuture<LockLease> queued = CompletableFuture.supplyAsync(() -> table.acquireOnce("writer", "queued",
        LockSettings.builder().acquireTimeout(Duration.ofSeconds(60)).maxWaiters(5).retryAttempts(1).build()));
    while (ds.lockStatus("writer").waiters() < 1 && !queued.isDone()) {
      Thread.sleep(20);
    }
    assertFalse(queued.isDone(), "the queued caller waits while the holder holds the lock");
    TooManyWaitersException full = assertThrows(TooManyWaitersException.class, () -> ds.newSnapshot().begin());
    assertTrue(full.getMessage().startsWith("lock 'writer' already has 1 waiters (max 1), held by 'holder'"),
        full.getMessage());
    holder.abort();
    LockLease granted = queued.get();
    assertEquals("queued", granted.owner());
    assertEquals(2, granted.token());
    assertTrue(table.release(granted));
    assertFalse(table.release(granted), "releasing a lease no longer held is a no-op");
    assertEquals(0, ds.lockStatus("writer").waiters());
  }

  @Test
  void aCrashedWriterIsTakenOverOnceItsLeaseExpires() throws Exception {
    LockSettings shortLease = LockSettings.builder().leaseDuration(Duration.ofSeconds(3))
        .acquireTimeout(Duration.ofSeconds(60)).build();
    SnapshotDataset ds = create("crash", shortLease);
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 3);
    Connection doomed = ConnectionFactory.createConnection(cluster.configuration());
    SnapshotDataset crashing = SnapshotDatasets.using(doomed, cluster.txClient()).open(ds.id());
    SnapshotWriter dead = crashing.newSnapshot().owner("doomed").begin();
    Fixtures.writeAndCommit(ds.newSnapshot().sourceKey("unrelated").begin(), "other", 1); // other locks are free
    for (int i = 0; i < 50; i++) {
      dead.put(Fixtures.key(i), "d", "v", Bytes.toBytes("dead:" + i));
    }
    dead.flush();
    doomed.close(); // the process dies: no commit, no release, no more heartbeats

    SnapshotInfo next = writeAndCommit(ds.newSnapshot().owner("next").begin(), "next", 4);
    assertEquals(next.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(SnapshotState.ABORTED, ds.snapshot(dead.snapshotId()).state(), "the new holder fenced the dead one");
    assertTrue(next.fencingToken() > ds.snapshot(dead.snapshotId()).fencingToken());
    assertTrue(cluster.txService().manager().getCurrentState().getInvalid().contains(dead.snapshotId().value()));
    assertEquals(50, CleanupIT.rawRows(cluster, ds, dead.snapshotId()));

    CleanupResult cleaned = ds.cleanup();
    assertTrue(cleaned.cleaned().contains(dead.snapshotId()));
    assertEquals(0, CleanupIT.rawRows(cluster, ds, dead.snapshotId()));
    assertTrue(cleaned.invalidTxTruncated().contains(dead.snapshotId().value()));
    assertFalse(cluster.txService().manager().getCurrentState().getInvalid().contains(dead.snapshotId().value()),
        "the dead writer's transaction left the invalid list");
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(next));
    assertTrue(before.id().compareTo(next.id()) < 0);
    dead.close(); // stops its heartbeat thread; everything it tries fails quietly
  }

  @Test
  void aStalledWriterWhoseLeaseWasTakenOverIsFenced() throws Exception {
    LockSettings lease = LockSettings.builder().leaseDuration(Duration.ofSeconds(30)).build();
    SnapshotDataset ds = create("fence", lease);
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 3);
    SnapshotWriter stalled = ds.newSnapshot().owner("A").begin();
    for (int i = 0; i < 20; i++) {
      stalled.put(Fixtures.key(i), "d", "v", Bytes.toBytes("A:" + i));
    }
    stalled.flush();

    // B's clock is past A's lease: to B, A stalled longer than its lease
    MutableClock later = MutableClock.startingNow();
    later.advance(Duration.ofMinutes(5));
    SnapshotDataset b = cluster.datasets().withClock(later).open(ds.id());
    SnapshotInfo published = writeAndCommit(b.newSnapshot().owner("B").begin(), "B", 6);
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id());

    FencedWriterException e = assertThrows(FencedWriterException.class, stalled::commit);
    assertEquals(stalled.snapshotId(), e.snapshot());
    assertTrue(e.newerToken() > e.token());
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id(), "A never moves the current pointer");
    assertEquals(SnapshotState.ABORTED, ds.snapshot(stalled.snapshotId()).state());
    assertEquals(20, CleanupIT.rawRows(cluster, ds, stalled.snapshotId()), "A's rows are left to cleanup");
    assertTrue(ds.cleanup().cleaned().contains(stalled.snapshotId()));
    assertEquals(0, CleanupIT.rawRows(cluster, ds, stalled.snapshotId()), "A's rows are gone");
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(published));
    assertTrue(before.id().compareTo(published.id()) < 0);
  }
}
