package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.DatasetStatus;
import io.snapds.dataset.EventSink;
import io.snapds.dataset.Reconciler;
import io.snapds.dataset.Reconciler.ReconcileResult;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One reconciler pass repairs what it can, leaves live writers alone, and a second finds nothing. */
@ExtendWith(MiniClusterExtension.class)
class ReconcilerRepairsUnattendedIT {
  private final MiniCluster cluster = MiniCluster.get();
  private static final Duration STALE = Duration.ofHours(1);

  @Test
  void onePassAbortsTheDeadWriterAndCleansWhatNoReaderSeesAndTheSecondFindsNothing() {
    cluster.endLeftoverTransactions(); // earlier classes' open writers would count as readers
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("reconcile"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo old = writeAndCommit(ds.newSnapshot().begin(), "old", 6);
    SnapshotInfo current = writeAndCommit(ds.newSnapshot().begin(), "current", 3);
    SnapshotWriter dead = ds.newSnapshot().sourceKey("2026-11").owner("killed-job").begin();
    dead.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("x"));
    dead.flush();
    SnapshotId deadId = dead.snapshotId();
    cluster.txClient().invalidate(deadId.value()); // its process was killed mid-build
    SnapshotWriter live = ds.newSnapshot().owner("healthy-job").begin();
    live.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("y"));
    live.flush();

    ReconcileResult first = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertTrue(first.skippedFor().isEmpty());
    assertTrue(first.found().size() >= 2, "the dead writer and the cleanable snapshot: " + first.found());
    assertTrue(first.repaired());
    assertEquals(List.of(deadId), first.cleanup().abortedDeadWriters());
    assertTrue(first.cleanup().cleaned().containsAll(List.of(old.id(), deadId)), first.cleanup().toString());
    assertEquals(SnapshotState.ABORTED, ds.snapshot(deadId).state());
    assertEquals(0, cluster.rawRows(ds.id(), deadId), "the dead writer's rows are gone");
    assertEquals(0, cluster.rawRows(ds.id(), old.id()), "the expired snapshot's rows are gone");
    assertEquals(List.of(), first.remaining(), "nothing is left for a person");
    // the healthy writer was not touched: it publishes
    assertEquals(SnapshotState.BUILDING, ds.snapshot(live.snapshotId()).state());
    assertEquals(1, cluster.rawRows(ds.id(), live.snapshotId()));

    ReconcileResult second = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertFalse(second.repaired(), "a second pass finds nothing to do: " + second);
    assertEquals(List.of(), second.found());
    SnapshotInfo published = live.commit();
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(current.id()).state());
  }

  @Test
  void aPassThatFindsAnotherReconcilerRunningChangesNothing() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("reconcile_busy"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo old = writeAndCommit(ds.newSnapshot().begin(), "old", 4);
    writeAndCommit(ds.newSnapshot().begin(), "new", 2);
    io.snapds.dataset.lock.LockTable locks = new io.snapds.dataset.lock.LockTable(cluster.connection(),
        ds.id().lockTable(), java.time.Clock.systemUTC());
    Optional<LockLease> other = locks.tryAcquire(Reconciler.LOCK, "reconciler-on-host-b", Duration.ofMinutes(5));
    assertTrue(other.isPresent());
    ReconcileResult skipped = Reconciler.runOnce(ds, "reconciler-on-host-a", STALE);
    assertEquals(Optional.of("reconciler-on-host-b"), skipped.skippedFor());
    assertFalse(skipped.repaired());
    assertEquals(4, cluster.rawRows(ds.id(), old.id()), "nothing was cleaned by the skipped pass");
    locks.release(other.get());
    assertTrue(Reconciler.runOnce(ds, "reconciler-on-host-a", STALE).repaired());
    assertEquals(0, cluster.rawRows(ds.id(), old.id()));
  }

  @Test
  void anUndeliveredEventIsRelayedByOnePassAndTheSecondFindsNothing() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("reconcile_relay"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(2)).build());
    writeAndCommit(ds.newSnapshot().begin(), "a", 2);
    writeAndCommit(ds.newSnapshot().begin(), "b", 2);
    List<Long> received = new java.util.ArrayList<>();
    boolean[] down = {true};
    EventSink broker = batch -> {
      if (down[0]) {
        throw new IllegalStateException("broker unreachable");
      }
      batch.forEach(e -> received.add(e.sequence()));
    };
    // the destination is down: the pass repairs the rest and says the events wait
    ReconcileResult failed = Reconciler.runOnce(ds, "reconciler-1", STALE, Map.of("broker", broker));
    assertEquals(0, failed.eventsRelayed());
    assertTrue(failed.remaining().stream().anyMatch(r -> r.startsWith("relay 'broker' failed")
        && r.contains("from sequence 1") && r.contains("broker unreachable")), failed.remaining().toString());
    assertEquals(List.of(), received);

    down[0] = false;
    writeAndCommit(ds.newSnapshot().begin(), "c", 2); // expires "a": PUBLISHED and EXPIRED
    long last = ds.status().lastEventSequence();
    ReconcileResult first = Reconciler.runOnce(ds, "reconciler-1", STALE, Map.of("broker", broker));
    assertTrue(first.repaired());
    long afterCleanup = ds.status().lastEventSequence(); // the pass's cleanup wrote CLEANED events
    assertTrue(afterCleanup > last, "cleanup wrote events: " + last + " -> " + afterCleanup);
    assertEquals(afterCleanup, first.eventsRelayed(), "the events the pass's own cleanup wrote went out too");
    assertEquals(List.of(), first.remaining());
    assertEquals(java.util.stream.LongStream.rangeClosed(1, afterCleanup).boxed().toList(), received);
    assertEquals(ds.events(0, 1000).stream().map(DatasetEvent::sequence).toList(), received);
    DatasetStatus status = ds.status();
    assertEquals(List.of(new DatasetStatus.Delivery("broker", afterCleanup, afterCleanup, 1)), status.deliveries());
    assertEquals(0, status.deliveries().get(0).undelivered());

    ReconcileResult second = Reconciler.runOnce(ds, "reconciler-1", STALE, Map.of("broker", broker));
    assertFalse(second.repaired(), "a second pass finds nothing to do: " + second);
    assertEquals(0, second.eventsRelayed());
    assertEquals(afterCleanup, received.size(), "nothing delivered twice without a failure");
    // one event undelivered: status counts it for the relay
    writeAndCommit(ds.newSnapshot().begin(), "d", 2);
    DatasetStatus.Delivery lagging = ds.status().deliveries().get(0);
    assertTrue(lagging.undelivered() >= 1 && !lagging.behindWindow(), lagging.toString());
  }

  /**
   * A cleanup killed half-way (its cleaning mark written, part of the rows deleted, the record
   * not yet marked cleaned) is finished by one pass, and a second finds nothing.
   */
  @Test
  void aCleanupInterruptedHalfWayIsFinishedByOnePass() throws Exception {
    cluster.endLeftoverTransactions();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("halfclean"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo old = writeAndCommit(ds.newSnapshot().begin(), "old", 10);
    SnapshotInfo current = writeAndCommit(ds.newSnapshot().begin(), "current", 3);
    // what a cleanup killed after its mark and its first deletes leaves behind
    new io.snapds.dataset.lock.LockTable(cluster.connection(), ds.id().lockTable(), java.time.Clock.systemUTC())
        .markCleaning(old.id());
    try (org.apache.hadoop.hbase.client.Table data = cluster.connection().getTable(ds.id().dataTable())) {
      for (int i = 0; i < 5; i++) {
        data.delete(new org.apache.hadoop.hbase.client.Delete(
            old.keys().rowKey(Fixtures.key(i))));
      }
    }
    assertEquals(5, cluster.rawRows(ds.id(), old.id()));
    assertTrue(ds.snapshot(old.id()).cleanedAt().isEmpty());

    ReconcileResult first = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertTrue(first.repaired(), first.toString());
    assertTrue(first.cleanup().cleaned().contains(old.id()), first.cleanup().toString());
    assertEquals(0, cluster.rawRows(ds.id(), old.id()), "the rest of its rows are gone");
    assertTrue(ds.snapshot(old.id()).cleanedAt().isPresent(), "and its record says cleaned");
    assertEquals(List.of(), first.remaining());
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(current), "the current snapshot is untouched");

    ReconcileResult second = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertFalse(second.repaired(), "a second pass finds nothing to do: " + second);
  }

  /**
   * A lease holder stalled (its heartbeats stopped counting) is fenced by one pass: the pass takes
   * its expired lease over and breaks it, aborting its snapshot; when it resumes its commit fails
   * with the fencing error and publishes nothing. A writer whose lease is live is not touched.
   */
  @Test
  void aStalledWritersExpiredLeaseIsFencedAndALiveWriterIsLeftAlone() {
    cluster.endLeftoverTransactions();
    io.snapds.dataset.DatasetId id = MiniCluster.uniqueDataset("stalled");
    SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
    // the stalled writer's clock stopped an hour ago: each heartbeat it sends writes an expiry in
    // the past, so the lock table sees what a process stopped with kill -STOP leaves behind
    SnapshotDataset stalledView = cluster.datasets()
        .withClock(java.time.Clock.fixed(java.time.Instant.now().minus(Duration.ofHours(1)), java.time.ZoneOffset.UTC))
        .open(id);
    SnapshotWriter stalled = stalledView.newSnapshot().sourceKey("a").owner("stalled-job").begin();
    stalled.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("late"));
    stalled.flush();
    SnapshotWriter live = ds.newSnapshot().sourceKey("b").owner("live-job").begin();
    live.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("live"));
    live.flush();
    String stalledLock = lockHeldBy(ds, "stalled-job");
    String liveLock = lockHeldBy(ds, "live-job");
    LockLease liveLease = ds.lockStatus(liveLock).lease().orElseThrow();

    ReconcileResult first = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertEquals(1, first.repairs().size(), first.toString());
    assertTrue(first.repairs().get(0).contains("lock '" + stalledLock + "'"), first.repairs().toString());
    assertEquals(SnapshotState.ABORTED, ds.snapshot(stalled.snapshotId()).state());
    assertTrue(ds.lockStatus(stalledLock).lease().isEmpty(), "the expired lease is gone: " + ds.lockStatus(stalledLock));
    // the live writer: same lease, same token, its snapshot still building
    assertEquals(SnapshotState.BUILDING, ds.snapshot(live.snapshotId()).state());
    assertEquals(liveLease.token(), ds.lockStatus(liveLock).lease().orElseThrow().token());

    // the stalled writer resumes: fenced, nothing published
    io.snapds.dataset.FencedWriterException fenced =
        org.junit.jupiter.api.Assertions.assertThrows(io.snapds.dataset.FencedWriterException.class, stalled::commit);
    assertTrue(fenced.getMessage().contains(stalled.snapshotId().toString()), fenced.getMessage());
    SnapshotInfo published = live.commit();
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id());
    assertTrue(ds.history().stream().noneMatch(h -> h.snapshot().equals(stalled.snapshotId())),
        "the fenced writer's snapshot was never current");
    assertEquals(SnapshotState.ABORTED, ds.snapshot(stalled.snapshotId()).state());

    ReconcileResult second = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertEquals(List.of(), second.repairs(), "a second pass fences nothing: " + second);
    stalledView.close();
  }

  /**
   * A writer process killed mid-build (a child JVM writing rows into a snapshot its driver began,
   * killed with SIGKILL after its first rows reached HBase) whose build transaction then timed out
   * (the dataset's build.max.time, 3 s; the mini cluster's Tephra times transactions out every
   * second): one pass aborts the snapshot and deletes every row the dead process wrote, and a
   * second pass finds nothing.
   */
  @Test
  void aWriterProcessKilledMidBuildIsAbortedByOnePassOnceItsTransactionTimedOut(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    cluster.endLeftoverTransactions();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("killed"),
        DatasetProperties.builder().maxBuildTime(Duration.ofSeconds(3)).build());
    SnapshotInfo current = writeAndCommit(ds.newSnapshot().begin(), "current", 2);
    SnapshotWriter driver = ds.newSnapshot().owner("killed-job").begin();
    SnapshotId building = driver.snapshotId();
    Process child = ChildJvm.of("128m", WideRowChild.class, ds.id().toString(), building.toString(),
        Integer.toString(100_000_000), "100", Long.toString(64 << 10), dir.resolve("tx").toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
    try {
      awaitUntil(() -> cluster.rawRows(ds.id(), building) > 0 || !child.isAlive(), "the child's first rows");
      assertTrue(child.isAlive(), "the child is still writing: " + java.nio.file.Files.readString(dir.resolve("child.log")));
    } finally {
      child.destroyForcibly().waitFor(); // SIGKILL mid-write
    }
    assertEquals(1, cluster.rawRows(ds.id(), building), "the dead process left its row behind");
    awaitUntil(() -> ds.status().building().stream().noneMatch(DatasetStatus.Build::transactionOpen),
        "the build transaction timed out");

    ReconcileResult first = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertEquals(List.of(building), first.cleanup().abortedDeadWriters(), first.toString());
    assertTrue(first.cleanup().cleaned().contains(building), first.cleanup().toString());
    assertEquals(SnapshotState.ABORTED, ds.snapshot(building).state());
    assertEquals(0, cluster.rawRows(ds.id(), building), "every row the killed process wrote is gone");
    assertEquals(current.id(), ds.currentSnapshot().orElseThrow().id());
    ReconcileResult second = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertFalse(second.repaired(), "a second pass finds nothing to do: " + second);
    driver.close(); // what was left of the dead job in this JVM: its lease keeper
  }

  /** Waits for {@code condition} (checked every 200 ms), failing after a minute. */
  private static void awaitUntil(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "waited a minute for " + what);
      Thread.sleep(200);
    }
  }

  private static String lockHeldBy(SnapshotDataset ds, String owner) {
    return ds.lockStatus().stream().filter(l -> l.lease().map(LockLease::owner).filter(owner::equals).isPresent())
        .findFirst().orElseThrow(() -> new AssertionError("no lock held by " + owner + ": " + ds.lockStatus()))
        .lockName();
  }
}
