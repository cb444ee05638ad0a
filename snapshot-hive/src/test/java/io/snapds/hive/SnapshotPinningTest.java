package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hive.conf.HiveConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A query reads the snapshot that was current when it was compiled, in all its stages; the next
 * query sees what was published meanwhile.
 */
@ExtendWith(MiniClusterExtension.class)
class SnapshotPinningTest {

  @Test
  void aQueryAfterAPublishSeesTheNewSnapshot() throws Exception {
    EmbeddedHive hive = EmbeddedHive.get();
    Prices prices = Prices.create(hive, "pub");
    prices.publish(1, 10);
    assertEquals(List.of("10"), hive.sql("SELECT count(*) FROM " + prices.table));
    SnapshotId second = prices.publish(2, 15).id();
    assertEquals(prices.rows(second, RowScan.all()), hive.sql("SELECT * FROM " + prices.table));
  }

  /**
   * Two MapReduce stages scan the table. The gate stops the first stage in its map task; a new
   * snapshot is published; then both stages finish. A handler that resolved the snapshot per
   * stage (when each stage computes its splits) would read the new one in the second stage.
   */
  @Test
  void aPublishDuringARunningQueryIsNotSeenByAnyOfItsStages() throws Exception {
    EmbeddedHive hive = EmbeddedHive.get();
    Prices prices = Prices.create(hive, "during");
    SnapshotId old = prices.publish(1, 20).id();
    double oldSum = sumOfPrices(prices, old);

    GateUdf.arm();
    CompletableFuture<SnapshotId> publisher = CompletableFuture.supplyAsync(() -> {
      try {
        GateUdf.awaitReached();
        return prices.publish(2, 30).id(); // while the query waits at the gate
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      } finally {
        GateUdf.open();
      }
    });
    List<String> result = hive.sqlWith("hive.fetch.task.conversion", "none",
        "SELECT a.n, a.total, b.n FROM"
            + " (SELECT count(gate(sku)) n, sum(price) total FROM " + prices.table + ") a CROSS JOIN"
            + " (SELECT count(gate(sku)) n FROM " + prices.table + ") b");
    SnapshotId published = publisher.get(60, TimeUnit.SECONDS);

    assertEquals(List.of("20\t" + oldSum + "\t20"), result);
    assertEquals(published, prices.dataset.currentSnapshot().orElseThrow().id(), "the new snapshot was published");
    assertEquals(List.of("30"), hive.sql("SELECT count(*) FROM " + prices.table), "and the next query sees it");
  }

  /**
   * The query's reader pin keeps the rows of its snapshot while it runs: the snapshot expires
   * and cleanup runs while the query waits at the gate, and its later stage still reads them all.
   */
  @Test
  void cleanupDuringARunningQueryKeepsThePinnedRows() throws Exception {
    EmbeddedHive hive = EmbeddedHive.get();
    Prices prices = Prices.create(hive, "cleanup");
    SnapshotId old = prices.publish(1, 20).id();
    double oldSum = sumOfPrices(prices, old);

    GateUdf.arm();
    CompletableFuture<Void> cleaner = CompletableFuture.runAsync(() -> {
      try {
        GateUdf.awaitReached();
        prices.publish(2, 30);
        prices.dataset.expireSnapshots().expire(old).commit();
        prices.dataset.cleanup();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      } finally {
        GateUdf.open();
      }
    });
    List<String> result = hive.sqlWith("hive.fetch.task.conversion", "none",
        "SELECT a.n, a.total, b.n FROM"
            + " (SELECT count(gate(sku)) n, sum(price) total FROM " + prices.table + ") a CROSS JOIN"
            + " (SELECT count(gate(sku)) n FROM " + prices.table + ") b");
    cleaner.get(60, TimeUnit.SECONDS);

    assertEquals(List.of("20\t" + oldSum + "\t20"), result);
    assertEquals(SnapshotState.EXPIRED, prices.dataset.snapshot(old).state());
    // the query has ended and released its pin: now cleanup removes the old rows
    prices.dataset.cleanup();
    try (RowScanner rows = new DataTable(MiniCluster.get().connection(), prices.id.dataTable()).scan(prices.dataset.keys(old), RowScan.all())) {
      assertFalse(rows.iterator().hasNext(), "the expired snapshot's rows are cleaned after the query");
    }
  }

  /**
   * A query's pins end with it: after its job for a MapReduce query; for a query whose rows a
   * fetch task reads after Hive's execution phase, when the session compiles its next query.
   */
  @Test
  void pinsAreReleasedWhenTheQueryIsDone() throws Exception {
    EmbeddedHive hive = EmbeddedHive.get();
    Prices prices = Prices.create(hive, "release");
    prices.publish(1, 5);

    hive.sqlWith("hive.fetch.task.conversion", "none", "SELECT count(*) FROM " + prices.table);
    String jobQuery = hive.conf().getVar(HiveConf.ConfVars.HIVE_QUERY_ID);
    assertEquals(List.of(), QueryPins.pins(jobQuery));

    assertEquals(5, hive.sql("SELECT * FROM " + prices.table).size()); // a fetch task
    String fetchQuery = hive.conf().getVar(HiveConf.ConfVars.HIVE_QUERY_ID);
    assertEquals(1, QueryPins.pins(fetchQuery).size(), "kept while the rows may still be fetched");
    hive.sql("SELECT count(*) FROM " + prices.table);
    assertEquals(List.of(), QueryPins.pins(fetchQuery));
  }

  private static double sumOfPrices(Prices prices, SnapshotId snapshot) {
    return prices.rows(snapshot, RowScan.all()).stream().mapToDouble(r -> Double.parseDouble(Prices.column(r, 1))).sum();
  }
}
