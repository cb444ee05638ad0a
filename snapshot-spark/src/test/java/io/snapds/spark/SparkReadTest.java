package io.snapds.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Reads through Spark: pushdown by the rows fetched, time travel, statistics, and the pin of a running query. */
@ExtendWith(MiniClusterExtension.class)
class SparkReadTest {
  private static final String SCHEMA = "id long key, name string, score int";

  private final MiniCluster cluster;
  private final SparkSession spark;

  SparkReadTest(MiniCluster cluster) {
    this.cluster = cluster;
    this.spark = SparkTests.spark(cluster);
  }

  private static List<Map<String, Object>> rows(long from, long to, String tag) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("id", i);
      r.put("name", tag + i);
      r.put("score", (int) (i % 7));
      out.add(r);
    }
    return out;
  }

  private Dataset<Row> read(DatasetId id) {
    return spark.read().format("snapds").option("dataset", id.toString()).load();
  }

  private static List<Long> ids(List<Row> rows) {
    return rows.stream().map(r -> r.getLong(r.fieldIndex("id"))).sorted().toList();
  }

  @Test
  void keyPredicatesBoundTheRowsFetched() {
    DatasetId id = MiniCluster.uniqueDataset("pushdown");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      SparkTests.writeJava(ds, rows(0, 100, "n"));
      // splits: one per key range and region (the dataset has one region)
      record Case(String where, List<Long> expected, int splits) {}
      List<Case> cases = List.of(
          new Case("id = 42", List.of(42L), 1),
          new Case("id IN (3, 50, 97, 1000)", List.of(3L, 50L, 97L), 4),
          new Case("id >= 90", LongStream.range(90, 100).boxed().toList(), 1),
          new Case("id > 5 AND id <= 9", List.of(6L, 7L, 8L, 9L), 1),
          new Case("id < 3 AND score = 1", List.of(1L), 1),
          new Case("id IN (1, 2) AND id > 50", List.of(), 0));
      for (Case c : cases) {
        Dataset<Row> df = read(id).where(c.where());
        List<Row> got = df.collectAsList();
        assertEquals(c.expected(), ids(got), c.where());
        List<BatchScanExec> scans = SparkTests.scans(df);
        assertEquals(1, scans.size(), c.where());
        long fetched = SparkTests.rowsFetched(scans.get(0));
        // score = 1 is left to Spark: the key range bounds the fetch to ids 0..2
        long bound = c.where().contains("score") ? 3 : c.expected().size();
        assertEquals(bound, fetched, "rows fetched for " + c.where());
        SnapshotScan scan = (SnapshotScan) scans.get(0).scan();
        assertEquals(c.splits(), scan.planInputPartitions().length,
            "splits planned for " + c.where() + ": " + scan.keyRanges());
        // what the key ranges hold exactly Spark does not evaluate again; the rest it does
        assertEquals(c.where().contains("score") ? List.of("score") : List.of(), SparkTests.filteredColumns(df),
            "columns Spark filters on after the scan for " + c.where());
      }
      // a predicate on no key field reads every row, and Spark filters
      Dataset<Row> all = read(id).where("score = 3");
      assertEquals(14, all.collectAsList().size());
      assertEquals(100, SparkTests.rowsFetched(SparkTests.scans(all).get(0)));
    }
  }

  @Test
  void stringKeyPrefixesAndPrunedColumns() {
    DatasetId id = MiniCluster.uniqueDataset("prefix");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, "k string key, v long")) {
      List<Map<String, Object>> records = new ArrayList<>();
      for (String k : List.of("apple", "apricot", "ap", "banana", "a", "apz\u0000x", "b")) {
        records.add(Map.of("k", k, "v", (long) k.length()));
      }
      SparkTests.writeJava(ds, records);
      Dataset<Row> df = spark.read().format("snapds").option("dataset", id.toString()).load()
          .where("k LIKE 'ap%'").select("k");
      List<String> got = df.collectAsList().stream().map(r -> r.getString(0)).sorted().toList();
      assertEquals(List.of("ap", "apple", "apricot", "apz\u0000x"), got);
      BatchScanExec scan = SparkTests.scans(df).get(0);
      assertEquals(4, SparkTests.rowsFetched(scan));
      assertEquals(List.of("k"), List.of(scan.scan().readSchema().fieldNames()), "only the key column is read");
    }
  }

  @Test
  void timeTravelByIdTimeAndTag() {
    DatasetId id = MiniCluster.uniqueDataset("travel");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      SnapshotId first = SparkTests.writeJava(ds, rows(0, 5, "a"));
      ds.manageTags(first).tag("release").commit();
      SnapshotId second = SparkTests.writeJava(ds, rows(10, 13, "b"));
      Instant firstAt = ds.snapshot(first).committedAt().orElseThrow();
      Instant secondAt = ds.snapshot(second).committedAt().orElseThrow();
      List<Long> firstIds = List.of(0L, 1L, 2L, 3L, 4L);
      List<Long> secondIds = List.of(10L, 11L, 12L);

      assertEquals(secondIds, ids(read(id).collectAsList()));
      assertEquals(firstIds, ids(spark.read().format("snapds").option("dataset", id.toString())
          .option("version", first.toString()).load().collectAsList()));
      assertEquals(firstIds, ids(spark.read().format("snapds").option("dataset", id.toString())
          .option("tag", "release").load().collectAsList()));
      assertEquals(firstIds, ids(spark.read().format("snapds").option("dataset", id.toString())
          .option("timestamp", String.valueOf(firstAt.toEpochMilli())).load().collectAsList()));
      assertEquals(secondIds, ids(spark.read().format("snapds").option("dataset", id.toString())
          .option("timestamp", secondAt.toString()).load().collectAsList()));

      String table = "snapds." + id.namespace() + "." + id.name();
      DateTimeFormatter sqlTime = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);
      assertEquals(secondIds, ids(spark.sql("SELECT id FROM " + table).collectAsList()));
      assertEquals(firstIds, ids(spark.sql("SELECT id FROM " + table + " VERSION AS OF " + first).collectAsList()));
      assertEquals(firstIds, ids(spark.sql("SELECT id FROM " + table + " VERSION AS OF 'release'").collectAsList()));
      assertEquals(firstIds, ids(spark.sql("SELECT id FROM " + table + " TIMESTAMP AS OF '"
          + sqlTime.format(firstAt) + "'").collectAsList()));
      assertEquals(secondIds, ids(spark.sql("SELECT id FROM " + table + " TIMESTAMP AS OF '"
          + sqlTime.format(secondAt) + "'").collectAsList()));
    }
  }

  @Test
  void statisticsAreTheSnapshotRecords() {
    DatasetId id = MiniCluster.uniqueDataset("stats");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      SnapshotId snapshot = SparkTests.writeJava(ds, rows(0, 37, "s"));
      SnapshotInfo info = ds.snapshot(snapshot);
      SnapshotTable table = (SnapshotTable) new SnapshotTableProvider().getTable(null, new Transform[0],
          Map.of("dataset", id.toString()));
      Statistics stats = ((SnapshotScan) table.newScanBuilder(CaseInsensitiveStringMap.empty()).build())
          .estimateStatistics();
      assertEquals(37, info.rowCount());
      assertEquals(info.rowCount(), stats.numRows().getAsLong());
      assertEquals(info.byteCount(), stats.sizeInBytes().getAsLong());
      assertTrue(info.byteCount() > 0);
    }
  }

  /** Holds the first row of a query until the test lets it go. */
  static final class Gate {
    static volatile CountDownLatch entered;
    static volatile CountDownLatch release;
  }

  @Test
  void aRunningQueryGetsItsSnapshotWhileAnotherIsPublishedAndCleanupRuns() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("pinned");
    DatasetProperties oneKept = DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build();
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA, oneKept)) {
      SnapshotId first = SparkTests.writeJava(ds, rows(0, 20, "p"));
      Gate.entered = new CountDownLatch(1);
      Gate.release = new CountDownLatch(1);
      Dataset<Long> query = read(id).map((MapFunction<Row, Long>) r -> {
        Gate.entered.countDown();
        if (!Gate.release.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never released the query");
        }
        return r.getLong(r.fieldIndex("id"));
      }, Encoders.LONG());
      CompletableFuture<List<Long>> running = CompletableFuture.supplyAsync(query::collectAsList);
      assertTrue(Gate.entered.await(60, TimeUnit.SECONDS), "the query started reading");

      SnapshotId second = SparkTests.writeJava(ds, rows(100, 105, "q"));
      assertEquals(second, ds.currentSnapshot().orElseThrow().id());
      var cleanup = ds.cleanup();
      assertFalse(cleanup.cleaned().contains(first), "cleanup kept the pinned snapshot: " + cleanup);
      assertFalse(ds.isCleaned(first));
      Gate.release.countDown();

      List<Long> got = running.get(120, TimeUnit.SECONDS).stream().sorted().toList();
      assertEquals(LongStream.range(0, 20).boxed().toList(), got, "exactly the pinned snapshot's rows");

      // the query's end released its pin: cleanup now collects the snapshot
      SparkTests.drainListeners(spark);
      assertEquals(0, ExecutionPins.heldExecutions());
      var after = ds.cleanup();
      assertTrue(after.cleaned().contains(first) || ds.isCleaned(first), "cleaned once released: " + after);
    }
  }

  @Test
  void badOptionsAreRefusedNamingTheValue() {
    DatasetId id = MiniCluster.uniqueDataset("badopt");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      SparkTests.writeJava(ds, rows(0, 1, "x"));
      Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> spark.read().format("snapds")
          .option("dataset", id.toString()).option("version", "seven").load().collectAsList());
      Throwable root = e;
      while (root.getCause() != null && !(root instanceof IllegalArgumentException)) {
        root = root.getCause();
      }
      assertInstanceOf(IllegalArgumentException.class, root);
      assertTrue(root.getMessage().contains("'version' 'seven'"), root.getMessage());
    }
  }
}
