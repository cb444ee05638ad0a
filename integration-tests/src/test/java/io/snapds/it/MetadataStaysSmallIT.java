package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.store.CommitClock;
import io.snapds.dataset.store.HBaseMetadataStore;
import io.snapds.dataset.store.ReadTransactions;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionContext;
import org.apache.tephra.TransactionSystemClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #11: thousands of small publishes (1,000 by default, to keep the suite's time;
 * {@code -Dsnapds.it.publishes=5000} for the figure) (retain 3, cleanup as it goes) leave a metadata table
 * whose cell count (all versions) stays under a bound that does not depend on the number of
 * publishes, while a reader running all along sees exactly one complete snapshot every time.
 */
@ExtendWith(MiniClusterExtension.class)
class MetadataStaysSmallIT {
  private static final int PUBLISHES = Integer.getInteger("snapds.it.publishes", 1000);
  private static final int RETAIN = 3;
  private static final int HORIZON = 10;
  /** Cells per kept snapshot or history entry (record, indexes, history row, versions), generous. */
  private static final int CELLS_PER_ENTRY = 40;
  /**
   * Outbox events (one cell each, with its versions) kept by the window, plus those of the five
   * publishes between cleanups (published, expired, cleaned: three each).
   */
  private static final int EVENT_CELLS = 4 * (HORIZON + 5 * 3);
  private static final long BOUND = (long) CELLS_PER_ENTRY * (RETAIN + 2 * HORIZON) + EVENT_CELLS + 200;
  /**
   * Raw cells also count delete markers and the versions they hide, which HBase keeps until a
   * major compaction; cleanup requests one after 1,000 deletes (MetadataPruner): a marker and a
   * hidden version per delete, twice over for the compaction running in the background.
   */
  private static final long RAW_BOUND = BOUND + 4 * 1_000;

  @Test
  void metadataCellsStayBoundedAndEveryReadSeesOneCompleteSnapshot() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("small"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(RETAIN)).historyHorizon(HORIZON, null)
            .eventsRetainLast(HORIZON).build());
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();
    List<String> bad = new ArrayList<>();
    Thread reader = new Thread(() -> {
      SnapshotDataset r = cluster.datasets().open(ds.id());
      while (!done.get()) {
        TransactionContext ctx = new TransactionContext(cluster.txClient(), r);
        try {
          ctx.start();
          if (r.pinnedSnapshot().isPresent()) {
            SnapshotInfo info = r.currentSnapshot().orElseThrow();
            Fixtures.Observation seen = Fixtures.observe(r);
            if (!seen.matches(info) || !info.id().equals(r.pinnedSnapshot().get())) {
              synchronized (bad) {
                bad.add(info.id() + " read as " + seen);
              }
            }
            reads.incrementAndGet();
          }
          ctx.finish();
        } catch (Exception e) {
          synchronized (bad) {
            bad.add(e.toString());
          }
        }
      }
    });
    reader.start();
    long maxCells = 0;
    long maxRaw = 0;
    try {
      for (int i = 1; i <= PUBLISHES; i++) {
        writeAndCommit(ds.newSnapshot().runId("run-" + i).begin(), "p" + i, 2);
        if (i % 5 == 0) {
          ds.cleanup();
        }
        if (i % 250 == 0 || i == PUBLISHES) {
          long[] cells = metaCells(cluster, ds.id().metaTable());
          maxCells = Math.max(maxCells, cells[0]);
          maxRaw = Math.max(maxRaw, cells[1]);
          System.out.printf("MetadataStaysSmallIT: after %d publishes: %d cells (all versions), %d raw with delete markers%n",
              i, cells[0], cells[1]);
          assertTrue(cells[0] <= BOUND, "after " + i + " publishes the metadata table holds " + cells[0]
              + " cells (all versions), above the bound " + BOUND);
          assertTrue(cells[1] <= RAW_BOUND, "after " + i + " publishes a raw scan of the metadata table finds "
              + cells[1] + " cells, above the bound " + RAW_BOUND);
        }
      }
    } finally {
      done.set(true);
      reader.join();
    }
    assertEquals(List.of(), bad, "every read saw one complete snapshot");
    assertTrue(reads.get() > 0);
    assertEquals(RETAIN, ds.retainedSnapshots().size());
    assertTrue(ds.history().size() <= HORIZON + 5, "history kept: " + ds.history().size());
    System.out.printf("MetadataStaysSmallIT: %d publishes, %d reads, max %d cells, max %d raw, bound %d%n",
        PUBLISHES, reads.get(), maxCells, maxRaw, BOUND);
  }

  // ---- item 1: reads outside an update that share a snapshot of the transaction state ----

  /** A transaction client that counts the short transactions started through it. */
  private static TransactionSystemClient counting(TransactionSystemClient real, List<Long> started) {
    return (TransactionSystemClient) Proxy.newProxyInstance(MetadataStaysSmallIT.class.getClassLoader(),
        new Class<?>[] {TransactionSystemClient.class}, (proxy, method, args) -> {
          try {
            Object out = method.invoke(real, args);
            if (method.getName().equals("startShort")) {
              synchronized (started) {
                started.add(((Transaction) out).getTransactionId());
              }
            }
            return out;
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static boolean inProgress(MiniCluster cluster, long txId) {
    Transaction probe = cluster.txClient().startShort();
    try {
      return Arrays.stream(probe.getInProgress()).anyMatch(id -> id == txId);
    } finally {
      cluster.txClient().abort(probe);
    }
  }

  @Test
  void readsOutsideATransactionShareOneTephraTransactionPerReuseWindow() {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("reuse"), DatasetProperties.defaults());
    SnapshotInfo first = writeAndCommit(ds.newSnapshot().begin(), "one", 3);
    List<Long> fresh = new ArrayList<>();
    List<Long> shared = new ArrayList<>();
    AtomicLong nanos = new AtomicLong();
    SnapshotDataset byDefault = SnapshotDatasets.using(cluster.connection(), counting(cluster.txClient(), fresh))
        .open(ds.id());
    SnapshotDataset reusing = SnapshotDatasets.using(cluster.connection(), counting(cluster.txClient(), shared))
        .withMetadataReadReuse(Duration.ofSeconds(10), nanos::get).open(ds.id());
    fresh.clear();
    shared.clear();
    for (int i = 0; i < 50; i++) {
      assertEquals(first.id(), byDefault.currentSnapshot().orElseThrow().id());
      assertEquals(first.id(), reusing.currentSnapshot().orElseThrow().id());
      assertEquals(1, reusing.history().size());
    }
    assertEquals(50, fresh.size(), "by default every read starts its own transaction");
    assertEquals(1, shared.size(), "150 reads inside one window share one transaction: " + shared);
    long sharedTx = shared.get(0);
    assertTrue(inProgress(cluster, sharedTx), "the shared transaction is in progress while its window lasts");

    nanos.addAndGet(Duration.ofSeconds(10).toNanos());
    assertEquals(first.id(), reusing.currentSnapshot().orElseThrow().id());
    assertEquals(2, shared.size(), "the window passed: the next read starts a new transaction");
    assertFalse(inProgress(cluster, sharedTx), "and the old one was ended, not left to time out");

    assertThrows(IllegalArgumentException.class, () -> cluster.datasets().withMetadataReadReuse(Duration.ofMinutes(1)));
    assertThrows(IllegalArgumentException.class, () -> cluster.datasets().withMetadataReadReuse(Duration.ofMillis(-1)));
    cluster.endLeftoverTransactions();
  }

  @Test
  void aPublishOfThisProcessIsSeenByTheNextReadOfASharedTransaction() {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset writer = cluster.datasets().create(MiniCluster.uniqueDataset("reuse"), DatasetProperties.defaults());
    writeAndCommit(writer.newSnapshot().begin(), "one", 3);
    SnapshotDataset reusing = cluster.datasets().withMetadataReadReuse(Duration.ofSeconds(10), () -> 0L)
        .open(writer.id());
    for (int i = 2; i <= 5; i++) {
      reusing.currentSnapshot(); // the window's transaction exists, and began before the publish
      SnapshotInfo published = writeAndCommit(writer.newSnapshot().begin(), "p" + i, 3);
      assertEquals(published.id(), reusing.currentSnapshot().orElseThrow().id(),
          "a publish through another dataset object of this JVM is seen at once");
      Fixtures.Observation rows = Fixtures.observe(reusing.readCurrent());
      assertTrue(rows.matches(published), "the current reader reads the new snapshot whole: " + rows);
    }
    cluster.endLeftoverTransactions();
  }

  @Test
  void aSharedTransactionInUseKeepsTheMetadataVersionsItSees() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("reuse"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo first = writeAndCommit(ds.newSnapshot().begin(), "one", 3);
    HBaseMetadataStore store = new HBaseMetadataStore(ds.id(), cluster.connection(), cluster.txClient(), 10,
        CommitClock.TRANSACTION_MANAGER,
        ReadTransactions.reusing(cluster.txClient(), Duration.ofSeconds(10), () -> 0L));
    CountDownLatch seen = new CountDownLatch(1);
    CountDownLatch changed = new CountDownLatch(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<SnapshotInfo[]> read = pool.submit(() -> store.readRecent(view -> {
        SnapshotInfo before = view.snapshot(first.id()).orElseThrow();
        seen.countDown();
        await(changed);
        // the same read, after 20 publishes expired, cleaned and re-versioned this record
        return new SnapshotInfo[] {before, view.snapshot(first.id()).orElseThrow(), view.currentInfo().orElseThrow()};
      }));
      seen.await();
      for (int i = 0; i < 20; i++) {
        writeAndCommit(ds.newSnapshot().begin(), "p" + i, 1);
        ds.cleanup();
      }
      SnapshotInfo meanwhile = record(ds, first.id());
      assertEquals(SnapshotState.EXPIRED, meanwhile.state(), "the first snapshot expired meanwhile");
      assertTrue(meanwhile.cleanedAt().isEmpty(), "cleanup waits for the transaction in progress that may read it");
      changed.countDown();
      SnapshotInfo[] got = read.get();
      assertEquals(got[0], got[1], "the record read late in the shared transaction is the one it saw first, complete");
      assertEquals(SnapshotState.COMMITTED, got[1].state());
      assertEquals(first.id(), got[2].id(), "and it still sees the snapshot current when it began");
      cluster.endLeftoverTransactions(); // the window's transaction (its timer would end it within 10 s)
      ds.cleanup();
      assertTrue(record(ds, first.id()).cleanedAt().isPresent(), "once it ended, cleanup cleans");
      assertEquals(0, cluster.rawRows(ds.id(), first.id()));
    } finally {
      changed.countDown();
      pool.shutdownNow();
      cluster.endLeftoverTransactions();
    }
  }

  /**
   * A cleanup reads the metadata in as many calls for twenty snapshots as for two. Its commit that
   * records them cleaned races every publish (each commit writes the pointer row): with one get
   * per snapshot in that commit, its window grew with the backlog, and under steady publishing it
   * lost every race and left the backlog to grow (CurrentMeansCurrentWhenPinnedIT: 22 of 25
   * cleanups gave up recording, each later one slower). Its probe read a progress row per snapshot
   * the same way.
   */
  @Test
  void aCleanupReadsTheMetadataInAsManyCallsForTwentySnapshotsAsForTwo() {
    long two = cleanupReadCalls(2);
    long twenty = cleanupReadCalls(20);
    assertEquals(two, twenty, "metadata read calls of a cleanup of 2 expired snapshots, then of 20");
  }

  /** Publishes {@code expired + 1} snapshots (retain 1) and returns the read calls of the cleanup that cleans the expired. */
  private long cleanupReadCalls(int expired) {
    SnapshotDataset ds = MiniCluster.get().datasets().create(MiniCluster.uniqueDataset("calls"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    for (int i = 0; i <= expired; i++) {
      writeAndCommit(ds.newSnapshot().begin(), "s" + i, 3);
    }
    long before = ds.metadataReadCalls();
    io.snapds.dataset.CleanupResult result = ds.cleanup();
    long calls = ds.metadataReadCalls() - before;
    assertEquals(expired, result.cleaned().size(), () -> "the cleanup cleaned every expired snapshot: " + result);
    assertEquals(expired, ds.snapshots().stream().filter(s -> s.cleanedAt().isPresent()).count(),
        "and recorded them cleaned");
    return calls;
  }

  private static SnapshotInfo record(SnapshotDataset ds, io.snapds.dataset.SnapshotId id) {
    return ds.snapshots().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Cells of the metadata table: every version; and raw (with delete markers not yet compacted). */
  static long[] metaCells(MiniCluster cluster, TableName table) throws IOException {
    long[] out = new long[2];
    try (Table t = cluster.connection().getTable(table)) {
      try (ResultScanner s = t.getScanner(new Scan().readAllVersions())) {
        for (Result r : s) {
          out[0] += r.size();
        }
      }
      try (ResultScanner s = t.getScanner(new Scan().readAllVersions().setRaw(true))) {
        for (Result r : s) {
          out[1] += r.size();
        }
      }
    }
    return out;
  }
}
