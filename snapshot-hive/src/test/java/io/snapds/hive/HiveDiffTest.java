package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DiffScanner;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hive reads the rows that differ between two snapshots ({@code snapds.diff.from}/{@code .to}):
 * the rows equal the Java API's {@code dataset.diff(...)} (keys, change types, values: the old row
 * of a removed one, the new row otherwise, and the old values in {@code :old:} columns), one split
 * per piece between region starts of either snapshot, key conditions narrow the splits and the
 * changes read, the selectors take ids, tags and times, and every mistake fails before a row is
 * read with a message naming the bad value.
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HiveDiffTest {
  /** The diff table's columns: the change type second, mapped as :change, and two old values last. */
  private static final String COLUMNS = "sku string, snapds_change string, price double, qty int, name string,"
      + " old_price double, old_name string";
  private static final String MAPPING = ":key,:change,d:price,d:qty#b,d:name,:old:d:price,:old:d:name";
  /** The columns the diff table maps: the Java API's diff is judged on these too. */
  private static final RowScan MAPPED = RowScan.all().column("d", "price").column("d", "qty").column("d", "name");

  private EmbeddedHive hive;
  private Prices prices;
  private String table;
  private SnapshotId unused;
  private SnapshotId older;
  private SnapshotId newer;
  private String olderTime;

  @BeforeAll
  void setUp() throws Exception {
    hive = EmbeddedHive.get();
    prices = Prices.create(hive, "hdiff"); // its own table has no change column
    table = prices.table + "_diff";
    hive.sql("CREATE EXTERNAL TABLE " + table + " (" + COLUMNS + ") STORED BY '"
        + SnapshotStorageHandler.class.getName() + "' TBLPROPERTIES ('snapds.dataset'='" + prices.id
        + "', 'snapds.columns.mapping'='" + MAPPING + "')");
    unused = publish(3, i -> "u" + i, null, null);
    // older: sku000..sku059, its range split at sku020; newer inherits that start and splits at sku045
    older = publish(60, i -> "v" + i, "sku020", null);
    newer = publish(70, i -> i % 7 == 0 ? null : i % 5 == 0 ? "changed" + i : "v" + i, null, "sku045");
    prices.dataset.manageTags(older).tag("base").commit();
    olderTime = prices.dataset.history().stream().filter(h -> h.snapshot().equals(older))
        .map(HistoryEntry::at).findFirst().orElseThrow().toString();
  }

  /** Rows {@code 0..n-1} whose name {@code value} gives (null: no row), split before or after writing. */
  private SnapshotId publish(int n, java.util.function.IntFunction<String> value, String splitBefore,
      String splitAfter) throws Exception {
    try (SnapshotWriter w = prices.dataset.newSnapshot().begin()) {
      if (splitBefore != null) {
        MiniCluster.get().splitAt(prices.id.dataTable(), w.snapshotKeys().rowKey(Bytes.toBytes(splitBefore)));
      }
      for (int i = 0; i < n; i++) {
        String v = value.apply(i);
        if (v == null) {
          continue;
        }
        byte[] k = Bytes.toBytes(Prices.sku(i));
        w.put(k, "d", "price", Bytes.toBytes(Double.toString(v.length() * 10 + i * 0.5)));
        w.put(k, "d", "qty", Bytes.toBytes(v.startsWith("changed") ? -i : i));
        if (i % 10 != 9) { // no name: NULL
          w.put(k, "d", "name", Bytes.toBytes(v));
        }
        w.put(k, "d", "unmapped", Bytes.toBytes(n)); // not a column of the table: differs in every row
      }
      if (splitAfter != null) {
        MiniCluster.get().splitAt(prices.id.dataTable(), w.snapshotKeys().rowKey(Bytes.toBytes(splitAfter)));
      }
      SnapshotInfo info = w.commit();
      return info.id();
    }
  }

  /**
   * The Java API's diff, as Hive prints the diff table's rows: the old row of a removed one, else
   * the new row, and the old price and name (NULL for an added row).
   */
  private List<String> expected(SnapshotSelector from, SnapshotSelector to, RowScan scan) throws Exception {
    List<String> out = new ArrayList<>();
    try (DiffScanner diff = prices.dataset.diff(from, to, scan)) {
      for (RowChange c : diff) {
        SnapshotRow r = c.kind() == RowChange.Kind.REMOVED ? c.before().orElseThrow() : c.after().orElseThrow();
        SnapshotRow old = c.before().orElse(null);
        out.add(String.join("\t", Bytes.toString(r.key()), c.kind().name(), price(r),
            Integer.toString(Bytes.toInt(r.value("d", "qty"))), name(r), old == null ? "NULL" : price(old),
            old == null ? "NULL" : name(old)));
      }
    }
    return out;
  }

  private static String price(SnapshotRow r) {
    return Double.toString(Double.parseDouble(Bytes.toString(r.value("d", "price"))));
  }

  private static String name(SnapshotRow r) {
    byte[] name = r.value("d", "name");
    return name == null ? "NULL" : Bytes.toString(name);
  }

  private static SnapshotSelector id(SnapshotId s) {
    return SnapshotSelector.snapshot(s);
  }

  /** Runs a statement with the session's diff settings (null: unset). */
  private List<String> withDiff(String from, String to, String sql) throws Exception {
    hive.set(HiveTableProperties.DIFF_FROM, from);
    hive.set(HiveTableProperties.DIFF_TO, to);
    try {
      return hive.sql(sql);
    } finally {
      hive.set(HiveTableProperties.DIFF_FROM, null);
      hive.set(HiveTableProperties.DIFF_TO, null);
    }
  }

  /** As a MapReduce job (not a fetch task), so that its counters are recorded. */
  private List<String> withDiffAndNoFetch(String from, String to, String sql) throws Exception {
    String before = hive.conf().get("hive.fetch.task.conversion");
    hive.set("hive.fetch.task.conversion", "none");
    try {
      return withDiff(from, to, sql);
    } finally {
      hive.set("hive.fetch.task.conversion", before);
    }
  }

  private long counter(String name) {
    return hive.counter(HiveTableProperties.COUNTER_GROUP, name);
  }

  @Test
  void theRowsAreTheJavaApisDiffOneSplitPerPieceBetweenRegionStarts() throws Exception {
    List<String> expected = expected(id(older), id(newer), MAPPED);
    Map<String, Integer> kinds = new TreeMap<>();
    expected.forEach(r -> kinds.merge(r.split("\t")[1], 1, Integer::sum));
    // removed: i % 7 == 0 below 60; added: 60..69 but 63; changed: i % 5 == 0 (not removed); the
    // unmapped cell differs in every row and does not count: a diff is judged on the table's columns
    assertEquals(Map.of("ADDED", 9, "CHANGED", 10, "REMOVED", 9), kinds);
    assertEquals(expected, withDiffAndNoFetch(older.toString(), newer.toString(), "SELECT * FROM " + table));
    assertEquals(3, counter(HiveTableProperties.DIFF_SPLITS), "cut at sku020 (older's region) and sku045 (newer's)");
    assertEquals(28, counter(HiveTableProperties.ROWS_READ), "the changes, not the 60 + 60 rows compared");
    // the same through a fetch task (no job), and what Hive computes on it
    assertEquals(expected, withDiff(older.toString(), newer.toString(), "SELECT * FROM " + table));
    assertEquals(List.of("ADDED\t9", "CHANGED\t10", "REMOVED\t9"), withDiff(older.toString(), newer.toString(),
        "SELECT snapds_change, count(*) FROM " + table + " GROUP BY snapds_change ORDER BY snapds_change"));
    // a changed row shows its new and its old values
    assertTrue(expected.contains("sku005\tCHANGED\t82.5\t-5\tchanged5\t22.5\tv5"), expected.toString());
    // outside a diff the change and old columns are NULL and the table reads the current snapshot
    assertEquals(List.of("NULL\t60\t0\t0"), hive.sql("SELECT snapds_change, count(*), count(old_price),"
        + " count(old_name) FROM " + table + " GROUP BY snapds_change"));
  }

  @Test
  void keyConditionsNarrowTheSplitsAndTheChangesRead() throws Exception {
    String sql = "SELECT * FROM " + table + " WHERE sku >= 'sku050' AND sku < 'sku070'";
    List<String> expected = expected(id(older), id(newer),
        MAPPED.range(Bytes.toBytes("sku050"), Bytes.toBytes("sku070")));
    assertEquals(12, expected.size()); // 56 removed, 50 and 55 changed, 60..69 but 63 added
    assertEquals(expected, withDiffAndNoFetch(older.toString(), newer.toString(), sql));
    assertEquals(1, counter(HiveTableProperties.DIFF_SPLITS), "only the piece after sku045");
    assertEquals(12, counter(HiveTableProperties.ROWS_READ));
    // IN: one plan per key, each in one piece
    List<String> two = withDiffAndNoFetch(older.toString(), newer.toString(),
        "SELECT sku, snapds_change FROM " + table + " WHERE sku IN ('sku060', 'sku007', 'sku008')");
    assertEquals(List.of("sku007\tREMOVED", "sku060\tADDED"), two);
    assertEquals(3, counter(HiveTableProperties.DIFF_SPLITS));
    assertEquals(2, counter(HiveTableProperties.ROWS_READ), "sku008 is unchanged");
  }

  @Test
  void tagsTimesCurrentAndTablePropertiesSelect() throws Exception {
    List<String> expected = expected(id(older), id(newer), MAPPED);
    assertEquals(expected, withDiff("tag:base", "current", "SELECT * FROM " + table));
    assertEquals(expected, withDiff("@" + olderTime, " " + newer + " ", "SELECT * FROM " + table));
    // backwards: added and removed swap, changed rows show the older values
    assertEquals(expected(id(newer), id(older), MAPPED), withDiff("current", "tag:base", "SELECT * FROM " + table));
    assertEquals(List.of(), withDiff("current", newer.toString(), "SELECT * FROM " + table), "the same snapshot twice");
    // table properties, and the session's setting for the one the table leaves out
    String pinned = table + "_since_base";
    hive.sql("CREATE EXTERNAL TABLE " + pinned + " (" + COLUMNS + ") STORED BY '"
        + SnapshotStorageHandler.class.getName() + "' TBLPROPERTIES ('snapds.dataset'='" + prices.id
        + "', 'snapds.columns.mapping'='" + MAPPING + "', 'snapds.diff.from'='tag:base')");
    assertEquals(expected, hive.sqlWith(HiveTableProperties.DIFF_TO, "current", "SELECT * FROM " + pinned));
    hive.sql("ALTER TABLE " + pinned + " SET TBLPROPERTIES ('snapds.diff.to'='" + newer + "')");
    assertEquals(expected, hive.sql("SELECT * FROM " + pinned));
    // the table property wins over the session setting
    assertEquals(expected, withDiff(newer.toString(), older.toString(), "SELECT * FROM " + pinned));
  }

  /** Runs a statement that must fail; returns every message of the failure's cause chain. */
  private String failure(String from, String to, String sql) {
    CommandProcessorException e = assertThrows(CommandProcessorException.class, () -> withDiff(from, to, sql), sql);
    StringBuilder all = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      all.append(" | ").append(t.getMessage());
    }
    assertEquals(0, counter(HiveTableProperties.ROWS_READ), "no row was read");
    return all.toString();
  }

  private static void assertContains(String expected, String actual) {
    assertTrue(actual.contains(expected), () -> "expected '" + expected + "' in: " + actual);
  }

  @Test
  void mistakesFailBeforeAnyRowNamingTheBadValue() throws Exception {
    String select = "SELECT * FROM " + table;
    assertContains("setting snapds.diff.from=" + older + " is set but snapds.diff.to is not",
        failure(older.toString(), null, select));
    assertContains("setting snapds.diff.to=current is set but snapds.diff.from is not",
        failure(null, "current", select));
    SnapshotId unknown = SnapshotId.of(newer.value() + 12345);
    assertContains("snapshot " + unknown + " does not exist in dataset " + prices.id,
        failure(unknown.toString(), "current", select));
    String tag = failure("tag:nightly", "current", select);
    assertContains("nightly", tag);
    assertContains(prices.id.toString(), tag);
    assertContains("setting snapds.diff.from 'yesterday' is not a snapshot: use current, a snapshot id, tag:NAME or"
        + " @TIME", failure("yesterday", "current", select));
    assertContains("setting snapds.diff.to 'noon' is not a time", failure("current", "@noon", select));
    // a table without a change column would show added and removed rows alike
    assertContains(prices.table + ": it reads a diff (snapds.diff.from, snapds.diff.to) but has no change"
        + " column", failure(older.toString(), "current", "SELECT * FROM " + prices.table));
    // a diff reads two snapshots: no AS OF clause
    assertContains("the table reads a diff (snapds.diff.from, snapds.diff.to), which reads two snapshots",
        failure(older.toString(), "current", select + " FOR SYSTEM_VERSION AS OF " + older));
    // writing one snapshot is not reading a diff: refused when compiled, nothing begun
    assertContains("INSERT OVERWRITE writes one whole snapshot, but the table reads a diff (snapds.diff.from="
        + older + " (setting), snapds.diff.to=current (setting))", failure(older.toString(), "current",
        "INSERT OVERWRITE TABLE " + prices.table
            + " SELECT 'k', 1.0, 1, 'n', true, current_timestamp(), cast('r' AS binary)"));
    assertEquals(newer, prices.dataset.readCurrent().snapshotId(), "nothing was written");
    // a snapshot whose cleanup has begun (its mark in the lock table) cannot be diffed
    new LockTable(MiniCluster.get().connection(), prices.id.lockTable(), Clock.systemUTC()).markCleaning(unused);
    assertContains("snapshot " + unused + " of dataset " + prices.id + " (snapds.diff.from snapshot " + unused
        + ") is being cleaned", failure(unused.toString(), "current", select));
  }

  @Test
  void aSchemaTableGetsTheChangeColumnFirstWhileItReadsADiff() throws Exception {
    DatasetId typed = MiniCluster.uniqueDataset("hdifftyped");
    SnapshotId a;
    SnapshotId b;
    try (SnapshotDataset ds = TypedRows.create(typed, "id int key, n long, label string")) {
      a = TypedRows.publish(ds, List.of(Map.of("id", -1, "n", 1L, "label", "gone"), Map.of("id", 2, "n", 2L,
          "label", "same"), Map.of("id", 3, "n", 3L, "label", "old"))).id();
      b = TypedRows.publish(ds, List.of(Map.of("id", 2, "n", 2L, "label", "same"), Map.of("id", 3, "n", 30L,
          "label", "new"), Map.of("id", 4, "n", 4L, "label", "added"))).id();
      String t = TypedRows.createTable(hive, typed, typed.name().toLowerCase(), "");
      List<String> described = withDiff(a.toString(), b.toString(), "DESCRIBE " + t).stream()
          .map(l -> l.replaceAll("\\s+", " ").replace(" from deserializer", "").trim()).toList();
      assertEquals(List.of("snapds_change string", "id int", "n bigint", "label string"), described);
      // the Java API's diff, decoded with the schema
      RowCodec codec = new RowCodec(ds.schema().orElseThrow(), ds.properties().defaultFamily());
      List<String> expected = new ArrayList<>();
      try (DiffScanner diff = ds.diff(id(a), id(b))) {
        for (RowChange c : diff) {
          SchemaRecord r = codec.decode(c.kind() == RowChange.Kind.REMOVED ? c.before().orElseThrow()
              : c.after().orElseThrow());
          expected.add(c.kind() + "\t" + r.get("id") + "\t" + r.get("n") + "\t" + r.get("label"));
        }
      }
      assertEquals(List.of("REMOVED\t-1\t1\tgone", "CHANGED\t3\t30\tnew", "ADDED\t4\t4\tadded"), expected);
      assertEquals(expected, withDiff(a.toString(), b.toString(), "SELECT * FROM " + t));
      assertEquals(List.of("id int", "n bigint", "label string"), hive.sql("DESCRIBE " + t).stream()
          .map(l -> l.replaceAll("\\s+", " ").replace(" from deserializer", "").trim()).toList(),
          "without the settings the table has the schema's columns only");
    }
  }
}
