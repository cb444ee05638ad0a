package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.lock.LockTimeoutException;
import io.snapds.dataset.testing.FaultyTxClient;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MutableClock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The metrics of docs/operations.md on the mini cluster: each operation moves exactly the meters
 * it should, by the number of times it was done; a registry given to {@link SnapshotDatasets#withMetrics}
 * or {@link SnapshotMetrics#use} receives them; the default JMX registry puts them in the platform
 * MBean server.
 */
@ExtendWith(MiniClusterExtension.class)
class DatasetMetricsTest {
  private final MiniCluster cluster = MiniCluster.get();

  private static SnapshotInfo publish(SnapshotDataset ds, String tag, int rows) {
    SnapshotWriter w = ds.newSnapshot().begin();
    for (int i = 0; i < rows; i++) {
      w.put(Bytes.toBytes(String.format("k%05d", i)), "d", "v", Bytes.toBytes(tag + i));
    }
    return w.commit();
  }

  private static double count(MeterRegistry r, DatasetId id, String meter) {
    return r.get(meter).tag("dataset", id.toString()).counter().count();
  }

  private static long timed(MeterRegistry r, DatasetId id, String meter) {
    return r.get(meter).tag("dataset", id.toString()).timer().count();
  }

  private static double gauge(MeterRegistry r, DatasetId id, String meter, String waitingFor) {
    return r.get(meter).tag("dataset", id.toString()).tag("waiting_for", waitingFor).gauge().value();
  }

  @Test
  void publishesAndConflictingCommitsMoveTheirMetersByTheOperationsDone() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    FaultyTxClient faulty = new FaultyTxClient(cluster.txClient());
    SnapshotDatasets datasets = SnapshotDatasets.using(cluster.connection(), faulty).withMetrics(r);
    DatasetId id = MiniCluster.uniqueDataset("metrics_publish");
    SnapshotDataset ds = datasets.create(id, DatasetProperties.builder().retention(RetentionPolicy.retainLast(10))
        .build());
    for (int i = 0; i < 3; i++) {
      publish(ds, "p" + i, 5);
    }
    assertEquals(3, timed(r, id, "snapds.publish"));
    assertEquals(0, count(r, id, "snapds.commit.conflicts"));
    assertEquals(0, count(r, id, "snapds.commit.retries"));
    long commitsBefore = timed(r, id, "snapds.commit");
    assertTrue(commitsBefore >= 6, "a begin and a publish commit each, 3 times: " + commitsBefore);

    // the publish's metadata commit loses two conflict checks, then commits
    SnapshotWriter w = ds.newSnapshot().begin();
    w.put(Bytes.toBytes("a"), "d", "v", Bytes.toBytes("x"));
    faulty.failConflictChecks(2);
    SnapshotInfo published = w.commit();
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(2, faulty.conflictsInjected());
    assertEquals(2, count(r, id, "snapds.commit.conflicts"));
    assertEquals(2, count(r, id, "snapds.commit.retries"));
    assertEquals(4, timed(r, id, "snapds.publish"));
    assertEquals(0, count(r, id, "snapds.commit.failures"));
    assertEquals(0, count(r, id, "snapds.lock.takeovers"));
    assertEquals(0, count(r, id, "snapds.fencings"));
    assertEquals(0, timed(r, id, "snapds.lock.wait"));
  }

  @Test
  void aCommitThatSpendsItsRetriesAndOneThatLosesTheServiceCountOneFailureEach() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    FaultyTxClient faulty = new FaultyTxClient(cluster.txClient());
    SnapshotDatasets datasets = SnapshotDatasets.using(cluster.connection(), faulty).withMetrics(r);
    DatasetId id = MiniCluster.uniqueDataset("metrics_commit_failures");
    SnapshotDataset ds = datasets.create(id, DatasetProperties.builder().commitRetries(2).build());
    SnapshotInfo first = publish(ds, "a", 2);
    assertEquals(0, count(r, id, "snapds.commit.failures"));

    // the tag's commit loses its first attempt and both retries: the budget is spent, one failure
    faulty.failConflictChecks(3);
    assertThrows(CommitConflictException.class, () -> ds.manageTags(first.id()).tag("gold").commit());
    assertEquals(3, faulty.conflictsInjected());
    assertEquals(1, count(r, id, "snapds.commit.failures"));
    assertEquals(2, count(r, id, "snapds.commit.retries"));
    assertEquals(3, count(r, id, "snapds.commit.conflicts"));

    // the transaction service is gone during the next commit: not retried (its outcome is not a
    // conflict), a second failure
    faulty.failCommits(1);
    assertThrows(SnapshotDatasetException.class, () -> ds.manageTags(first.id()).tag("silver").commit());
    assertEquals(2, count(r, id, "snapds.commit.failures"));
    assertEquals(2, count(r, id, "snapds.commit.retries"), "no retry of an error");

    // a commit that succeeds counts no failure
    assertEquals(java.util.List.of("blue"), ds.manageTags(first.id()).tag("blue").commit().tags().stream()
        .toList());
    assertEquals(2, count(r, id, "snapds.commit.failures"));
  }

  @Test
  void aCleanupThatMergesTheEmptyRegionsOfCleanedSnapshotsCountsItsMerge() throws Exception {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    DatasetId id = MiniCluster.uniqueDataset("metrics_merge");
    SnapshotDataset ds = cluster.datasets().withMetrics(r).create(id, DatasetProperties.builder()
        .retention(RetentionPolicy.retainLast(1)).build());
    // the first snapshot's range split at user key k00010 before its rows; each later snapshot
    // inherits the split point. Every snapshot writes only keys below it (k00000-k00009), so no
    // split leaves a region with references to its parent's files (HBase refuses to merge those).
    SnapshotWriter first = ds.newSnapshot().begin();
    cluster.splitAt(id.dataTable(), first.snapshotKeys().rowKey(Bytes.toBytes("k00010")));
    for (int i = 0; i < 10; i++) {
      first.put(Bytes.toBytes(String.format("k%05d", i)), "d", "v", Bytes.toBytes("a" + i));
    }
    first.commit();
    publish(ds, "b", 10); // expires the first
    publish(ds, "c", 10); // expires the second
    assertEquals(0, count(r, id, "snapds.regions.merged"));
    // [start, first's split), [first's split, second's split), [second's split, third's split), [third's split, end)
    assertEquals(4, regions(id));

    CleanupResult run = ds.cleanup();
    assertEquals(2, run.cleaned().size(), "the first two snapshots are cleaned");
    // the two regions below the third snapshot's range hold no live row: one merge makes them one;
    // the region the third snapshot's range begins in holds live rows and is left alone
    assertEquals(3, regions(id), "one region less");
    assertEquals(1, count(r, id, "snapds.regions.merged"));
    ds.cleanup(); // nothing more to clean or merge
    assertEquals(1, count(r, id, "snapds.regions.merged"));
    assertEquals(3, regions(id));
  }

  private int regions(DatasetId id) throws Exception {
    try (org.apache.hadoop.hbase.client.RegionLocator locator = cluster.connection()
        .getRegionLocator(id.dataTable())) {
      return locator.getAllRegionLocations().size();
    }
  }

  @Test
  void aWaitForAHeldLockIsTimedOnce() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    DatasetId id = MiniCluster.uniqueDataset("metrics_wait");
    LockSettings oneShortWait = LockSettings.builder().acquireTimeout(Duration.ofMillis(300)).retryAttempts(1)
        .build();
    SnapshotDataset ds = cluster.datasets().withMetrics(r).create(id, DatasetProperties.builder()
        .lockSettings(oneShortWait).build());
    try (SnapshotWriter holder = ds.newSnapshot().owner("A").begin()) {
      assertThrows(LockTimeoutException.class, () -> ds.newSnapshot().owner("B").begin());
      assertEquals(1, timed(r, id, "snapds.lock.wait"), "B waited once");
      assertEquals(1, count(r, id, "snapds.lock.wait.timeouts"), "and did not get the lock");
      holder.abort();
    }
    assertEquals(0, count(r, id, "snapds.lock.takeovers"));
  }

  @Test
  void aWaitThatGetsTheLockIsTimedOnceAndIsNoTimeout() throws Exception {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    DatasetId id = MiniCluster.uniqueDataset("metrics_wait_granted");
    SnapshotDataset ds = cluster.datasets().withMetrics(r).create(id, DatasetProperties.builder()
        .lockSettings(LockSettings.builder().acquireTimeout(Duration.ofMinutes(5)).retryAttempts(1).build()).build());
    SnapshotWriter holder = ds.newSnapshot().owner("A").begin();
    java.util.concurrent.CompletableFuture<SnapshotInfo> waiter = java.util.concurrent.CompletableFuture.supplyAsync(
        () -> {
          try (SnapshotWriter w = ds.newSnapshot().owner("B").begin()) {
            w.put(Bytes.toBytes("b"), "d", "v", Bytes.toBytes("B"));
            return w.commit();
          }
        });
    // B is a registered waiter once the lock table lists it; then A publishes and releases the lock
    io.snapds.dataset.lock.LockTable locks = new io.snapds.dataset.lock.LockTable(cluster.connection(),
        id.lockTable(), java.time.Clock.systemUTC());
    while (locks.status("writer").waiters() == 0) {
      assertFalse(waiter.isDone(), "B must wait while A holds the lock");
      Thread.onSpinWait();
    }
    holder.put(Bytes.toBytes("a"), "d", "v", Bytes.toBytes("A"));
    SnapshotInfo a = holder.commit();
    SnapshotInfo b = waiter.get();
    assertTrue(a.id().compareTo(b.id()) < 0, "B began after A published");
    assertEquals(1, timed(r, id, "snapds.lock.wait"), "B waited once");
    assertEquals(0, count(r, id, "snapds.lock.wait.timeouts"));
    assertEquals(2, timed(r, id, "snapds.publish"));
  }

  @Test
  void aTakeoverAndABrokenLockCountTheirTakeoversAndFencings() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    DatasetId id = MiniCluster.uniqueDataset("metrics_fence");
    SnapshotDataset ds = cluster.datasets().withMetrics(r).create(id, DatasetProperties.builder()
        .lockSettings(LockSettings.builder().leaseDuration(Duration.ofSeconds(30)).build()).build());
    SnapshotWriter stalled = ds.newSnapshot().owner("A").begin();
    // B's clock is past A's lease: B takes the expired lease over, and its begin fences A off
    MutableClock later = MutableClock.startingNow();
    later.advance(Duration.ofMinutes(5));
    SnapshotDataset b = cluster.datasets().withClock(later).withMetrics(r).open(id);
    publish(b, "B", 3);
    assertEquals(1, count(r, id, "snapds.lock.takeovers"));
    assertEquals(1, count(r, id, "snapds.fencings"));
    assertThrows(FencedWriterException.class, stalled::commit);

    // an operator breaks the lease of a live writer: one more fencing, no takeover
    SnapshotWriter broken = ds.newSnapshot().owner("C").begin();
    assertTrue(ds.breakLock("writer").isPresent());
    assertThrows(FencedWriterException.class, broken::commit);
    assertEquals(1, count(r, id, "snapds.lock.takeovers"));
    assertEquals(2, count(r, id, "snapds.fencings"));
    assertEquals(1, timed(r, id, "snapds.publish"), "only B published");
  }

  @Test
  void cleanupCountsTheRowsItDeletedAndTheBacklogAPinHolds() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    DatasetId id = MiniCluster.uniqueDataset("metrics_cleanup");
    SnapshotDataset ds = cluster.datasets().withMetrics(r).create(id, DatasetProperties.builder()
        .retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo first = publish(ds, "a", 10);
    ReaderPin pin = ds.pin(first.id(), "metrics-test", Duration.ofMinutes(10));
    assertEquals(1.0, r.get("snapds.reader.pins").tag("dataset", id.toString()).gauge().value());
    SnapshotInfo second = publish(ds, "b", 20); // expires the first (pinned)
    publish(ds, "c", 30); // expires the second
    assertEquals(10, first.rowCount());
    assertEquals(20, second.rowCount());

    CleanupResult run = ds.cleanup();
    assertEquals(java.util.List.of(second.id()), run.cleaned(), "the pinned snapshot waits");
    assertEquals(20, count(r, id, "snapds.cleanup.rows.deleted"));
    assertEquals(run.rowsDeleted(), count(r, id, "snapds.cleanup.rows.deleted"));
    assertEquals(1, count(r, id, "snapds.cleanup.snapshots.cleaned"));
    assertEquals(1, gauge(r, id, "snapds.cleanup.backlog.snapshots", "pin"));
    assertEquals(10, gauge(r, id, "snapds.cleanup.backlog.rows", "pin"));
    assertEquals(0, gauge(r, id, "snapds.cleanup.backlog.snapshots", "transaction"));
    assertEquals(0, gauge(r, id, "snapds.cleanup.backlog.snapshots", "fence"));

    pin.close();
    pin.close(); // idempotent: counted once
    assertEquals(0.0, r.get("snapds.reader.pins").tag("dataset", id.toString()).gauge().value());
    CleanupResult again = ds.cleanup();
    assertEquals(java.util.List.of(first.id()), again.cleaned());
    assertEquals(30, count(r, id, "snapds.cleanup.rows.deleted"));
    assertEquals(2, count(r, id, "snapds.cleanup.snapshots.cleaned"));
    assertEquals(0, gauge(r, id, "snapds.cleanup.backlog.snapshots", "pin"));
    assertEquals(0, gauge(r, id, "snapds.cleanup.backlog.rows", "pin"));
    assertEquals(0, cluster.rawRows(id, first.id()));
  }

  @Test
  void aRelaysLagIsWhatItFoundBehindAndWhatAFailingSinkLeftUndelivered() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    DatasetId id = MiniCluster.uniqueDataset("metrics_relay");
    SnapshotDataset ds = cluster.datasets().withMetrics(r).create(id, DatasetProperties.defaults());
    publish(ds, "a", 1);
    publish(ds, "b", 1);
    java.util.List<DatasetEvent> delivered = new java.util.ArrayList<>();
    Relay.RelayResult first = Relay.of(ds, "metrics", delivered::addAll).run();
    assertTrue(first.delivered() >= 2, "the two publishes at least: " + first);
    assertEquals(first.delivered(), delivered.size());
    assertEquals(first.delivered(), r.get("snapds.relay.lag").tag("dataset", id.toString()).tag("relay", "metrics")
        .gauge().value(), "behind by every event when it began");
    assertEquals(0.0, r.get("snapds.relay.undelivered").tag("relay", "metrics").gauge().value());

    publish(ds, "c", 1);
    publish(ds, "d", 1);
    publish(ds, "e", 1);
    Relay.RelayResult failed = Relay.of(ds, "metrics", batch -> {
      throw new IllegalStateException("sink down");
    }).run();
    assertTrue(failed.failure().isPresent());
    long behind = failed.lastSequence() - failed.fromPosition(); // three publishes and what they expired
    assertTrue(behind >= 3, failed.toString());
    assertEquals(behind, failed.undelivered(), failed.toString());
    assertEquals(behind, r.get("snapds.relay.lag").tag("relay", "metrics").gauge().value());
    assertEquals(behind, r.get("snapds.relay.undelivered").tag("relay", "metrics").gauge().value());
  }

  @Test
  void theProcessWideRegistryFeedsAUsersRegistryAndTheJmxMBeans() throws Exception {
    assertTrue(SnapshotMetrics.jmxOn(), "JMX is on by default");
    SimpleMeterRegistry mine = new SimpleMeterRegistry();
    SnapshotMetrics.use(mine);
    try {
      DatasetId id = MiniCluster.uniqueDataset("metrics_global");
      SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
      publish(ds, "g", 2);
      publish(ds, "h", 2);
      assertEquals(2, timed(mine, id, "snapds.publish"));
      assertEquals(2, timed(SnapshotMetrics.registry(), id, "snapds.publish"));

      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      Set<ObjectName> names = server.queryNames(new ObjectName(SnapshotMetrics.JMX_DOMAIN + ":*"), null);
      ObjectName publish = names.stream()
          // snapdsPublish and not snapdsPublishCounted, the publishes by how they were counted
          .filter(n -> n.toString().matches(".*snapdsPublish(?![A-Za-z]).*") && n.toString().contains(id.name()))
          .findFirst().orElseThrow(() -> new AssertionError("no publish MBean of " + id + " in " + names));
      assertEquals(2L, ((Number) server.getAttribute(publish, "Count")).longValue());

      SnapshotMetrics.jmx(false);
      assertFalse(server.isRegistered(publish), "turning JMX off removes the MBeans");
    } finally {
      SnapshotMetrics.jmx(true);
      SnapshotMetrics.stopUsing(mine);
    }
  }
}
