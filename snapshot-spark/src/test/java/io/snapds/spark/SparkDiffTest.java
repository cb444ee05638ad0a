package io.snapds.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.DiffScanner;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.read.DiffSplit;
import io.snapds.dataset.read.ReadSplit;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.testing.GoldenRecords;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Diffs through Spark ({@code option("diff.from", ...).option("diff.to", ...)}) against the Java
 * API's diff of the same two snapshots: every change's kind, key, column types and values, over
 * snapshots of several regions; a pushed key range and the diff's columns narrowing it; both
 * snapshots kept while a diff runs and released at its end; bad options refused naming the value. One dataset for the class (its two snapshots are read only).
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkDiffTest {
  private final MiniCluster cluster;
  private final SparkSession spark;
  private DatasetId id;
  private SnapshotDataset ds;
  private Schema schema;
  private String family;
  private SnapshotId older;
  private SnapshotId newer;

  SparkDiffTest(MiniCluster cluster) {
    this.cluster = cluster;
    this.spark = SparkTests.spark(cluster);
  }

  /** The golden records and 300 more; then a snapshot that removes, changes and adds some, each snapshot split in two regions. */
  @BeforeAll
  void twoSnapshots() throws Exception {
    id = MiniCluster.uniqueDataset("diff");
    ds = SparkTests.create(cluster, id, GoldenRecords.schemaText());
    schema = ds.schema().orElseThrow();
    family = ds.properties().families().get(0);
    List<Map<String, Object>> first = new ArrayList<>(GoldenRecords.records());
    for (long i = 100; i < 400; i++) {
      first.add(generated(i, "a"));
    }
    older = write(first, 200);
    ds.manageTags(older).tag("before").commit();
    List<Map<String, Object>> second = new ArrayList<>();
    for (Map<String, Object> r : GoldenRecords.records()) {
      long k = (Long) r.get("id");
      if (k == 42L) {
        continue; // removed
      }
      if (k == -1L) {
        Map<String, Object> changed = new LinkedHashMap<>(r);
        changed.put("s", "changed");
        changed.put("amount", null);
        second.add(changed);
      } else {
        second.add(r);
      }
    }
    for (long i = 100; i < 450; i++) {
      if (i % 11 == 0) {
        continue; // removed (and added ones above 400)
      }
      second.add(generated(i, i % 7 == 0 ? "b" : "a")); // every seventh changed in s, l and day
    }
    newer = write(second, 300);
  }

  private SnapshotId write(List<Map<String, Object>> records, long splitAt) throws Exception {
    RowCodec codec = new RowCodec(schema, family);
    try (SnapshotWriter w = ds.newSnapshot().owner("diff-test").begin()) {
      cluster.splitAt(id.dataTable(), w.snapshotKeys().rowKey(new KeyCodec(schema).encode(List.of(splitAt))));
      for (Map<String, Object> r : records) {
        w.put(codec.encode(r));
      }
      return w.commit().id();
    }
  }

  private static Map<String, Object> generated(long i, String version) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", i);
    r.put("flag", i % 2 == 0);
    r.put("i", (int) i * 3);
    r.put("l", version.equals("a") ? i : -i);
    r.put("f", i / 4f);
    r.put("d", i / 8.0);
    r.put("s", version + i);
    r.put("b", new byte[] {(byte) i, 7});
    r.put("amount", BigDecimal.valueOf(i * 10_001, 4));
    r.put("day", LocalDate.of(2026, 1, 1).plusDays(version.equals("a") ? i : i + 1));
    r.put("at", LocalDateTime.of(2026, 12, 6, 9, 0).plusNanos(i * 1000));
    r.put("at_tz", Instant.parse("2026-12-06T09:00:00Z").plusSeconds(i));
    return r;
  }

  private Dataset<Row> diff(String from, String to) {
    return spark.read().format("snapds").option("dataset", id.toString()).option("diff.from", from)
        .option("diff.to", to).load();
  }

  private Dataset<Row> diff(String from, String to, String columns) {
    return spark.read().format("snapds").option("dataset", id.toString()).option("diff.from", from)
        .option("diff.to", to).option("diff.columns", columns).load();
  }

  /**
   * The rows Spark should return for the Java API's diff with {@code scan}: the change, the new
   * row's values (the old row's for REMOVED), and {@code old_<col>} from the old row.
   */
  private List<Map<String, Object>> expected(RowScan scan, List<String> columns) {
    RowCodec codec = new RowCodec(schema, family);
    List<Map<String, Object>> out = new ArrayList<>();
    try (DiffScanner changes = ds.diff(SnapshotSelector.snapshot(older), SnapshotSelector.snapshot(newer), scan)) {
      for (RowChange c : changes) {
        SchemaRecord before = c.before().map(codec::decode).orElse(null);
        SchemaRecord after = c.after().map(codec::decode).orElse(null);
        SchemaRecord shown = after != null ? after : before;
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("change", c.kind().name());
        for (String f : columns) {
          row.put(f, shown.get(f));
        }
        for (String f : columns) {
          if (!schema.field(f).isKey()) {
            row.put("old_" + f, before == null ? null : before.get(f));
          }
        }
        out.add(row);
      }
    }
    return out;
  }

  private static void assertRowsEqual(List<Map<String, Object>> expected, List<Row> rows) {
    assertEquals(expected.size(), rows.size(), "changes");
    for (int i = 0; i < expected.size(); i++) {
      Row row = rows.get(i);
      assertEquals(expected.get(i).size(), row.size(), "columns of change " + i + ": " + row.schema());
      for (Map.Entry<String, Object> e : expected.get(i).entrySet()) {
        Object got = row.get(row.fieldIndex(e.getKey()));
        String what = "change " + i + " (" + expected.get(i).get("id") + ") column " + e.getKey();
        if (e.getValue() instanceof byte[] b) {
          assertArrayEquals(b, (byte[]) got, what);
        } else {
          assertEquals(e.getValue(), got, what);
        }
      }
    }
  }

  /** Collects the diff's rows in key order (sorted here: a sort in Spark would hide the scan behind a shuffle stage). */
  private static List<Row> collect(Dataset<Row> df) {
    List<Row> rows = new ArrayList<>(df.collectAsList());
    rows.sort((a, b) -> Long.compare(a.getLong(a.fieldIndex("id")), b.getLong(b.fieldIndex("id"))));
    return rows;
  }

  @Test
  void sparksDiffIsTheJavaApisOverSeveralRegions() {
    Dataset<Row> df = diff(older.toString(), newer.toString());
    StructType plain = spark.read().format("snapds").option("dataset", id.toString()).load().schema();
    for (String f : GoldenRecords.names()) {
      assertEquals(plain.apply(f).dataType(), df.schema().apply(f).dataType(), "type of " + f);
      if (!f.equals("id")) {
        assertEquals(plain.apply(f).dataType(), df.schema().apply("old_" + f).dataType(), "type of old_" + f);
      }
    }
    List<Row> rows = collect(df);
    List<Map<String, Object>> expected = expected(RowScan.all(), GoldenRecords.names());
    // removed: 42 and the 27 multiples of 11 in 100..399; changed: -1 and the 39 multiples of 7 (not
    // of 11) in 100..399; added: the 46 of 400..449 that are not multiples of 11
    assertEquals(28 + 40 + 46, expected.size(), "the Java API's changes");
    assertRowsEqual(expected, rows);

    DiffScan scan = (DiffScan) SparkTests.scans(df).get(0).scan();
    // regions begin at 200 (in the older snapshot) and 300 (in the newer): three pieces
    assertEquals(3, scan.planInputPartitions().length, "one partition per DiffSplit");
    SparkTests.drainListeners(spark);
    assertEquals(0, ExecutionPins.heldExecutions(), "the query's end released both pins");

    // a tag and current; the same snapshot twice
    assertRowsEqual(expected, collect(diff("tag:before", "current")));
    assertEquals(0, diff("current", newer.toString()).count());
  }

  @Test
  void aPushedKeyRangeNarrowsTheDiff() {
    KeyCodec keys = new KeyCodec(schema);
    byte[] start = keys.encodePrefix(List.of(150L));
    byte[] stop = keys.encodePrefix(List.of(250L));
    Dataset<Row> df = diff(older.toString(), newer.toString()).where("id >= 150 AND id < 250");
    List<Row> rows = collect(df);
    List<Map<String, Object>> expected = expected(RowScan.all().range(start, stop), GoldenRecords.names());
    assertEquals(9 + 12, expected.size(), "9 removed, 12 changed between 150 and 250");
    assertRowsEqual(expected, rows);
    DiffScan scan = (DiffScan) SparkTests.scans(df).get(0).scan();
    InputPartition[] parts = scan.planInputPartitions();
    assertEquals(2, parts.length, "150..200 and 200..250");
    for (InputPartition p : parts) {
      DiffSplit s = ((DiffInputPartition) p).split();
      for (ReadSplit side : List.of(s.before(), s.after())) {
        int prefix = side.keys().prefixLength();
        byte[] from = Arrays.copyOfRange(side.startRow(), prefix, side.startRow().length);
        byte[] until = Arrays.copyOfRange(side.stopRow(), prefix, side.stopRow().length);
        assertTrue(Bytes.compareTo(from, start) >= 0 && Bytes.compareTo(until, stop) <= 0,
            "split " + s + " lies in 150..250");
      }
    }
  }

  @Test
  void theDiffsColumnsJudgeChanged() {
    List<Row> rows = collect(diff(older.toString(), newer.toString(), "s, l"));
    List<Map<String, Object>> expected = expected(RowScan.all().column(family, "s").column(family, "l"),
        List.of("id", "l", "s"));
    assertRowsEqual(expected, rows);
    assertEquals(List.of("change", "id", "l", "s", "old_l", "old_s"), List.of(rows.get(0).schema().fieldNames()));
    // -1 changed in s and amount (a change); no generated row changed in s without l
    assertTrue(expected.stream().anyMatch(r -> Long.valueOf(-1).equals(r.get("id"))));

    // judged on amount alone, which no generated row changes: no row is CHANGED, and -1, whose
    // amount went to null, holds none of the columns in the newer snapshot, so it is REMOVED (the
    // core's rule for a projected diff)
    List<Map<String, Object>> onAmount = expected(RowScan.all().column(family, "amount"), List.of("id", "amount"));
    assertRowsEqual(onAmount, collect(diff(older.toString(), newer.toString(), "amount")));
    assertEquals(0, onAmount.stream().filter(r -> r.get("change").equals("CHANGED")).count());
    assertTrue(onAmount.stream().anyMatch(r -> Long.valueOf(-1).equals(r.get("id")) && r.get("change").equals("REMOVED")));
  }

  @Test
  void aRunningDiffKeepsBothSnapshotsThroughPublishesAndCleanupAndReleasesThemAtItsEnd() throws Exception {
    DatasetId pinned = MiniCluster.uniqueDataset("diffpin");
    DatasetProperties twoKept = DatasetProperties.builder().retention(RetentionPolicy.retainLast(2)).build();
    try (SnapshotDataset d = SparkTests.create(cluster, pinned, "id long key, v string", twoKept)) {
      SnapshotId a = SparkTests.writeJava(d, List.of(Map.of("id", 1L, "v", "a"), Map.of("id", 2L, "v", "a")));
      SnapshotId b = SparkTests.writeJava(d, List.of(Map.of("id", 2L, "v", "b"), Map.of("id", 3L, "v", "b")));
      SparkReadTest.Gate.entered = new CountDownLatch(1);
      SparkReadTest.Gate.release = new CountDownLatch(1);
      Dataset<String> query = spark.read().format("snapds").option("dataset", pinned.toString())
          .option("diff.from", a.toString()).option("diff.to", b.toString()).load()
          .map((MapFunction<Row, String>) r -> {
            SparkReadTest.Gate.entered.countDown();
            if (!SparkReadTest.Gate.release.await(60, TimeUnit.SECONDS)) {
              throw new IllegalStateException("the test never released the query");
            }
            return r.getString(r.fieldIndex("change")) + " " + r.getLong(r.fieldIndex("id"));
          }, Encoders.STRING());
      CompletableFuture<List<String>> running = CompletableFuture.supplyAsync(query::collectAsList);
      assertTrue(SparkReadTest.Gate.entered.await(60, TimeUnit.SECONDS), "the diff started reading");

      // two more publishes: a and b are no longer among the last two
      SparkTests.writeJava(d, List.of(Map.of("id", 8L, "v", "c")));
      SnapshotId c = SparkTests.writeJava(d, List.of(Map.of("id", 9L, "v", "d")));
      var cleanup = d.cleanup();
      assertFalse(d.isCleaned(a) || d.isCleaned(b), "cleanup kept both pinned snapshots: " + cleanup);
      SparkReadTest.Gate.release.countDown();
      List<String> got = running.get(120, TimeUnit.SECONDS).stream().sorted().toList();
      assertEquals(List.of("ADDED 3", "CHANGED 2", "REMOVED 1"), got, "exactly the diff of the pinned snapshots");

      SparkTests.drainListeners(spark);
      assertEquals(0, ExecutionPins.heldExecutions());
      var after = d.cleanup();
      assertTrue(d.isCleaned(a) && d.isCleaned(b), "both cleaned once the query released them: " + after);
      assertEquals(c, d.currentSnapshot().orElseThrow().id());
    }
  }

  @Test
  void badOptionsAreRefusedNamingTheValue() {
    assertRefused(IllegalArgumentException.class, "'diff.to'", () -> spark.read().format("snapds")
        .option("dataset", id.toString()).option("diff.from", older.toString()).load());
    assertRefused(IllegalArgumentException.class, "'diff.from'", () -> spark.read().format("snapds")
        .option("dataset", id.toString()).option("diff.to", "current").load());
    assertRefused(SnapshotNotAvailableException.class, "no-such-tag", () -> diff("tag:no-such-tag", "current"));
    assertRefused(IllegalArgumentException.class, "'version'", () -> spark.read().format("snapds")
        .option("dataset", id.toString()).option("diff.from", "1").option("diff.to", "current")
        .option("version", "1").load());
    assertRefused(IllegalArgumentException.class, "'nope'", () -> diff("current", "current", "s,nope"));
    assertRefused(IllegalArgumentException.class, "'@yesterday'", () -> diff("@yesterday", "current"));
  }

  private static void assertRefused(Class<? extends Throwable> type, String named, Runnable action) {
    Throwable e = assertThrows(Throwable.class, action::run);
    Throwable root = e;
    while (root.getCause() != null && !type.isInstance(root)) {
      root = root.getCause();
    }
    assertInstanceOf(type, root, Arrays.toString(e.getStackTrace()));
    assertTrue(root.getMessage().contains(named), root.getMessage());
  }
}
