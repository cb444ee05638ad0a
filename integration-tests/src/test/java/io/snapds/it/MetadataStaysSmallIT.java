package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.tephra.TransactionContext;
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
