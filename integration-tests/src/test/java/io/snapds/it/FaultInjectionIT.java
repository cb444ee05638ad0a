package io.snapds.it;

import static io.snapds.it.Fixtures.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CommitStateUnknownException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The core's promises under faults, on the mini cluster (two region servers): readers verifying
 * row count and checksum of every snapshot they pin run the whole time, while a region server
 * is aborted mid-build and mid-publish, the Tephra manager is restarted from its persisted state
 * mid-publish, a writer's heartbeat stalls past its lease, and the data table is disabled for a
 * while. Invariant over the whole run: every publish happened or not (and a published one is
 * whole); no reader ever sees a mixed, short or empty snapshot; nothing committed is lost; the
 * published history only moves forward; every writer's lock is released or expired.
 */
@ExtendWith(MiniClusterExtension.class)
class FaultInjectionIT {
  private static final int ROWS = 200;
  private static final Duration LEASE = Duration.ofSeconds(3);

  private final MiniCluster cluster = MiniCluster.get();
  private final HookedTxClient tx = new HookedTxClient(cluster);

  private enum Outcome { PUBLISHED, FAILED, UNKNOWN }

  /** One publish attempt: what the writer meant to publish, and what commit() said. */
  private record Attempt(String label, SnapshotId id, int rows, Outcome outcome, String error) {}

  private final List<Attempt> attempts = new ArrayList<>();

  @Test
  void publishesAreAllOrNothingAndReadersNeverSeeABrokenSnapshotUnderFaults() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("faults");
    LockSettings lock = LockSettings.builder().leaseDuration(LEASE).acquireTimeout(Duration.ofSeconds(30)).build();
    cluster.datasets().create(id, DatasetProperties.builder().retention(RetentionPolicy.retainLast(3))
        .lockSettings(lock).build());
    SnapshotDataset ds = SnapshotDatasets.using(cluster.connection(), tx).open(id);
    attempt(ds, "seed", ROWS, w -> { }, () -> { }, () -> { });

    Queue<String> violations = new ConcurrentLinkedQueue<>();
    AtomicInteger failedReads = new AtomicInteger();
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<List<SnapshotId>>> readers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      readers.add(pool.submit(ConsistentReader.tolerating(cluster, id, done::get, violations, failedReads)));
    }
    try {
      // a region server dies while a snapshot is being written (half of it flushed to it)
      attempt(ds, "rs-mid-build", ROWS, w -> {
        w.flush();
        abortRegionServerServing(id);
      }, () -> { }, () -> { });
      awaitRegionsOnline();
      // a region server dies in the publish transaction, before its conflict check
      attempt(ds, "rs-mid-publish", ROWS, w -> { },
          () -> tx.beforeNextConflictCheck(() -> abortRegionServerServing(id)), () -> { });
      awaitRegionsOnline();
      // the transaction manager restarts from its persisted state just before the publish commits
      attempt(ds, "tephra-mid-publish", ROWS, w -> { },
          () -> tx.beforeNextCommit(cluster::restartTransactionManager), () -> { });
      // a writer stalls past its lease; another takes over and publishes; the first is fenced
      SnapshotWriter stalled = ds.newSnapshot().owner("stalled").begin();
      writeRows(stalled, "stalled", 0, ROWS);
      MutableClock later = MutableClock.startingNow();
      later.advance(LEASE.plusSeconds(1));
      SnapshotDataset takeover = SnapshotDatasets.using(cluster.connection(), tx).withClock(later).open(id);
      attempt(takeover, "takeover", ROWS / 4, w -> { }, () -> { }, () -> { });
      publish(stalled, "stalled", ROWS, () -> { }, () -> { }, false);
      // the data table is disabled for a while under a writer
      // (a caller that retries the failed commit once the table is back must not publish what
      // the failed flush dropped)
      attempt(ds, "table-disabled", ROWS, w -> { }, () -> setDataTable(id, false), () -> {
        sleep(Duration.ofSeconds(2));
        setDataTable(id, true);
      }, true);
      // and afterwards the dataset works as before
      attempt(ds, "final", ROWS / 2, w -> { }, () -> { }, () -> { });
    } finally {
      done.set(true);
      pool.shutdown();
      awaitRegionsOnline();
    }
    long reads = 0;
    for (Future<List<SnapshotId>> r : readers) {
      reads += r.get().size();
    }

    try {
      LoggerFactory.getLogger(FaultInjectionIT.class).info("attempts {}; {} reads verified, {} failed under the faults",
          attempts, reads, failedReads.get());
      assertEquals(List.of(), List.copyOf(violations), "no reader ever saw a mixed, short or empty snapshot; " + attempts);
      assertTrue(reads > 0, "the readers read (" + failedReads.get() + " reads failed under the faults)");
      SnapshotDataset check = cluster.datasets().open(id);
      check.cleanup();
      for (Attempt a : attempts) {
        if (a.id() == null) {
          continue; // begin failed: nothing was recorded
        }
        SnapshotInfo stored = check.snapshot(a.id());
        switch (a.outcome()) {
          case PUBLISHED -> {
            assertTrue(stored.state() == SnapshotState.COMMITTED || stored.state() == SnapshotState.EXPIRED,
                a + " was published: " + stored);
            assertEquals(a.rows(), stored.rowCount(), a + ": the published count is what was written");
          }
          case FAILED -> assertNotEquals(SnapshotState.COMMITTED, stored.state(), a + " failed, so never published");
          case UNKNOWN -> { } // either; if committed, it is checked whole below
          default -> throw new AssertionError(a);
        }
      }
      for (SnapshotInfo s : check.retainedSnapshots()) {
        Fixtures.Observation o = Fixtures.observe(check.readSnapshot(s.id()));
        assertTrue(o.matches(s), "nothing committed is lost: " + s + " reads " + o);
      }
      Attempt last = attempts.get(attempts.size() - 1);
      assertEquals(Outcome.PUBLISHED, last.outcome(), "after the faults, publishing works: " + last);
      assertEquals(last.id(), check.currentSnapshot().orElseThrow().id());
      List<HistoryEntry> history = check.history();
      for (int i = 1; i < history.size(); i++) {
        assertTrue(history.get(i).snapshot().isAfter(history.get(i - 1).snapshot()), "history moves forward: " + history);
      }
      assertFalse(check.lockStatus("writer").isHeld(Instant.now()), "no writer holds the lock");
      for (Attempt a : attempts.stream().filter(a -> a.id() != null).toList()) {
        assertFalse(cluster.txService().manager().getCurrentState().getInProgress().containsKey(a.id().value()),
            "no building transaction is left open: " + a);
      }
    } finally {
      endTransactionsStrandedByTheRestart();
    }
  }

  /**
   * Begins, writes the first half, runs {@code midBuild}, writes the rest, runs
   * {@code beforeCommit}, commits, runs {@code afterCommit}; records what happened.
   */
  private void attempt(SnapshotDataset ds, String label, int rows, Consumer<SnapshotWriter> midBuild,
      Runnable beforeCommit, Runnable afterCommit) {
    attempt(ds, label, rows, midBuild, beforeCommit, afterCommit, false);
  }

  private void attempt(SnapshotDataset ds, String label, int rows, Consumer<SnapshotWriter> midBuild,
      Runnable beforeCommit, Runnable afterCommit, boolean retryCommit) {
    SnapshotWriter w;
    try {
      w = ds.newSnapshot().owner(label).begin();
    } catch (RuntimeException e) {
      attempts.add(new Attempt(label, null, rows, Outcome.FAILED, "begin: " + e));
      return;
    }
    try {
      writeRows(w, label, 0, rows / 2);
      midBuild.accept(w);
      writeRows(w, label, rows / 2, rows);
    } catch (RuntimeException e) {
      attempts.add(new Attempt(label, w.snapshotId(), rows, Outcome.FAILED, "write: " + e));
      w.close();
      return;
    }
    publish(w, label, rows, beforeCommit, afterCommit, retryCommit);
  }

  private void publish(SnapshotWriter w, String label, int rows, Runnable beforeCommit, Runnable afterCommit,
      boolean retryCommit) {
    try {
      w.summary("label", label).summary("checksum", Long.toString(checksum(label, rows)));
      beforeCommit.run();
      RuntimeException failed = null;
      try {
        w.commit();
      } catch (RuntimeException e) {
        failed = e;
      } finally {
        afterCommit.run();
      }
      if (failed != null) {
        if (!retryCommit || failed instanceof CommitStateUnknownException) {
          throw failed;
        }
        w.commit(); // the fault is over: a caller tries again
      }
      attempts.add(new Attempt(label, w.snapshotId(), rows, Outcome.PUBLISHED, null));
    } catch (CommitStateUnknownException e) {
      attempts.add(new Attempt(label, w.snapshotId(), rows, Outcome.UNKNOWN, e.toString()));
    } catch (RuntimeException e) {
      attempts.add(new Attempt(label, w.snapshotId(), rows, Outcome.FAILED, e.toString()));
    } finally {
      w.close();
    }
  }

  private static void writeRows(SnapshotWriter w, String label, int from, int to) {
    for (int i = from; i < to; i++) {
      w.put(key(i), "d", "v", Bytes.toBytes(label + ":" + i));
    }
  }

  private static long checksum(String label, int rows) {
    long sum = 0;
    for (int i = 0; i < rows; i++) {
      sum += Fixtures.crc(key(i), Bytes.toBytes(label + ":" + i));
    }
    return sum;
  }

  /**
   * Moves the dataset's regions to the region server that does not carry hbase:meta, aborts that
   * server, and starts a new one in its place (the cluster keeps its count).
   */
  private void abortRegionServerServing(DatasetId id) {
    MiniHBaseCluster hbase = cluster.util().getMiniHBaseCluster();
    try {
      ServerName meta = hbase.getServerHoldingMeta();
      JVMClusterUtil.RegionServerThread victim = hbase.getLiveRegionServerThreads().stream()
          .filter(t -> !t.getRegionServer().getServerName().equals(meta)).findFirst()
          .orElseThrow(() -> new AssertionError("no region server without hbase:meta"));
      ServerName target = victim.getRegionServer().getServerName();
      try (Admin admin = cluster.connection().getAdmin()) {
        for (TableName table : List.of(id.dataTable(), id.metaTable(), id.lockTable())) {
          for (RegionInfo region : admin.getRegions(table)) {
            admin.move(region.getEncodedNameAsBytes(), target);
          }
        }
      }
      cluster.util().waitUntilNoRegionsInTransition(60_000);
      int index = hbase.getRegionServerThreads().indexOf(victim);
      hbase.abortRegionServer(index);
      hbase.waitOnRegionServer(index);
      hbase.startRegionServer();
    } catch (Exception e) {
      throw new IllegalStateException("aborting a region server failed", e);
    }
  }

  /**
   * A reader whose transaction began on the manager that was restarted holds the in-memory
   * client of the stopped manager, so it can never end that transaction, which the new manager
   * restored from its log: it would count as a reader of every dataset until it timed out. A
   * real client reconnects to the restarted service; here the test ends them, as an operator
   * would: every short transaction still in progress now belongs to this test.
   */
  private void endTransactionsStrandedByTheRestart() {
    cluster.endLeftoverTransactions();
  }

  private void awaitRegionsOnline() {
    try {
      cluster.util().waitUntilNoRegionsInTransition(120_000);
    } catch (Exception e) {
      throw new IllegalStateException("regions did not come back online", e);
    }
  }

  private void setDataTable(DatasetId id, boolean enabled) {
    try (Admin admin = cluster.connection().getAdmin()) {
      if (enabled) {
        admin.enableTable(id.dataTable());
      } else {
        admin.disableTable(id.dataTable());
      }
    } catch (Exception e) {
      throw new IllegalStateException("switching " + id.dataTable() + " failed", e);
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
