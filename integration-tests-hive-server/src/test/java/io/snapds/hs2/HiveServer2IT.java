package io.snapds.hs2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The storage handler as users reach it on a cluster: HiveServer2 (Hive 4.0.1, the newest whose
 * server is served; the handler is built against 4.1.0) with an embedded metastore, queried over
 * JDBC with hive-jdbc, one JDBC connection per session. Every answer is checked against what the
 * Java API reads from the same snapshot, and every write against the stored snapshot records.
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HiveServer2IT {
  private static final String HANDLER = "io.snapds.hive.SnapshotStorageHandler";
  private static final String COLUMNS = "sku string, gen int, name string";
  private static final String MAPPING = ":key,d:gen#b,d:name";

  private HiveServer hs2;

  @BeforeAll
  void start() throws Exception {
    hs2 = HiveServer.get();
  }

  // ---- a dataset of generations: generation g has rows sku000..sku(n-1), gen = g ----

  private record Gens(DatasetId id, SnapshotDataset dataset, String table) {}

  /** A new dataset (no snapshot) and, through {@code c}, a Hive table over it with a column list. */
  private static Gens gens(Connection c, String prefix) throws SQLException {
    DatasetId id = MiniCluster.uniqueDataset(prefix);
    SnapshotDataset ds = MiniCluster.get().datasets().create(id, DatasetProperties.builder().families("d").build());
    String table = id.name().toLowerCase();
    exec(c, "CREATE EXTERNAL TABLE " + table + " (" + COLUMNS + ") STORED BY '" + HANDLER
        + "' TBLPROPERTIES ('snapds.dataset'='" + id + "', 'snapds.columns.mapping'='" + MAPPING + "')");
    return new Gens(id, ds, table);
  }

  private static String sku(int i) {
    return String.format("sku%03d", i);
  }

  private static SnapshotInfo publish(SnapshotDataset ds, int g, int n) {
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (int i = 0; i < n; i++) {
        byte[] k = Bytes.toBytes(sku(i));
        w.put(k, "d", "gen", Bytes.toBytes(g));
        w.put(k, "d", "name", Bytes.toBytes("item " + i + " g" + g));
      }
      return w.commit();
    }
  }

  /** A snapshot's rows through the Java API, as {@link #query} returns them. */
  private static List<String> javaRows(SnapshotDataset ds, SnapshotId snapshot) {
    List<String> out = new ArrayList<>();
    try (RowScanner rows = ds.readSnapshot(snapshot).scan(RowScan.all())) {
      for (SnapshotRow r : rows) {
        out.add(Bytes.toString(r.key()) + "\t" + Bytes.toInt(r.value("d", "gen")) + "\t"
            + Bytes.toString(r.value("d", "name")));
      }
    }
    return out;
  }

  // ---- JDBC ----

  private static void exec(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** The rows of a query, each column's getString joined by tabs (NULL for null). */
  private static List<String> query(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      int n = r.getMetaData().getColumnCount();
      while (r.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          String v = r.getString(i);
          row.append(i > 1 ? "\t" : "").append(v == null ? "NULL" : v);
        }
        out.add(row.toString());
      }
    }
    return out;
  }

  private static void assertContains(String expected, String actual) {
    assertTrue(actual != null && actual.contains(expected), "expected <" + expected + "> in <" + actual + ">");
  }

  // ---- tests ----

  @Test
  void aTableWithAColumnListReadsTheCurrentSnapshot() throws Exception {
    try (Connection c = hs2.connect()) {
      Gens t = gens(c, "cols");
      publish(t.dataset(), 1, 8);
      SnapshotId current = publish(t.dataset(), 2, 12).id();
      assertEquals(javaRows(t.dataset(), current), query(c, "SELECT * FROM " + t.table()));
      assertEquals(List.of("sku string", "gen int", "name string"), query(c, "DESCRIBE " + t.table()).stream()
          .map(r -> r.split("\t", -1)[0].trim() + " " + r.split("\t", -1)[1].trim()).collect(Collectors.toList()));
    }
  }

  @Test
  void aTableWithoutAColumnListTakesTheDatasetsSchema() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("schema");
    MiniCluster.get().datasets().create(id, DatasetProperties.defaults());
    SnapshotDataset ds = MiniCluster.get().datasets().open(id);
    ds.setSchema(Schema.parse("id int key, name string, price double"));
    RowCodec codec = new RowCodec(ds.schema().orElseThrow(), ds.properties().defaultFamily());
    List<String> expected = new ArrayList<>();
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (int i = -2; i < 4; i++) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", i);
        row.put("name", "n" + i);
        row.put("price", i * 1.5);
        w.put(codec.encode(row));
        expected.add(i + "\tn" + i + "\t" + (i * 1.5));
      }
      w.commit();
    }
    String table = id.name().toLowerCase();
    try (Connection c = hs2.connect()) {
      exec(c, "CREATE EXTERNAL TABLE " + table + " STORED BY '" + HANDLER + "' TBLPROPERTIES ('snapds.dataset'='" + id + "')");
      try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT * FROM " + table + " WHERE id < 100")) {
        ResultSetMetaData md = r.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          columns.add(md.getColumnName(i).replaceFirst("^" + table + "\\.", "") + " " + md.getColumnTypeName(i));
        }
        assertEquals(List.of("id int", "name string", "price double"), columns);
      }
      assertEquals(expected, query(c, "SELECT * FROM " + table));
    }
  }

  @Test
  void keyPredicatesAreScannedAsKeyRanges() throws Exception {
    try (Connection c = hs2.connect()) {
      Gens t = gens(c, "push");
      SnapshotId current = publish(t.dataset(), 1, 50).id();
      List<String> all = javaRows(t.dataset(), current);
      // a MapReduce job, not a fetch task, so that the job's counters exist
      exec(c, "SET hive.fetch.task.conversion=none");

      String between = "SELECT * FROM " + t.table() + " WHERE sku BETWEEN 'sku010' AND 'sku012'";
      assertEquals(all.subList(10, 13), query(c, between));
      assertEquals(3, JobCounters.rowsRead(between), "the scan read only the key range");

      String equal = "SELECT * FROM " + t.table() + " WHERE sku = 'sku007'";
      assertEquals(all.subList(7, 8), query(c, equal));
      assertEquals(1, JobCounters.rowsRead(equal));

      // the same filter on a value column is not a key range: every row is read
      String value = "SELECT * FROM " + t.table() + " WHERE name = 'item 7 g1'";
      assertEquals(all.subList(7, 8), query(c, value));
      assertEquals(50, JobCounters.rowsRead(value));
    }
  }

  @Test
  void timeTravelByIdTimeAndTag() throws Exception {
    try (Connection c = hs2.connect()) {
      Gens t = gens(c, "tt");
      SnapshotId old = publish(t.dataset(), 1, 10).id();
      SnapshotId today = publish(t.dataset(), 2, 15).id();
      t.dataset().manageTags(old).tag("release").commit();
      Instant oldAt = t.dataset().history().stream().filter(h -> h.snapshot().equals(old))
          .map(HistoryEntry::at).findFirst().orElseThrow();
      // hive.local.time.zone is UTC (hive-site.xml)
      String oldTime = LocalDateTime.ofInstant(oldAt, ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"));
      List<String> oldRows = javaRows(t.dataset(), old);
      assertEquals(10, oldRows.size());

      assertEquals(javaRows(t.dataset(), today), query(c, "SELECT * FROM " + t.table()));
      assertEquals(oldRows, query(c, "SELECT * FROM " + t.table() + " FOR SYSTEM_VERSION AS OF " + old));
      assertEquals(oldRows, query(c, "SELECT * FROM " + t.table() + " FOR SYSTEM_TIME AS OF '" + oldTime + "'"));
      assertEquals(oldRows, query(c, "SELECT * FROM default." + t.table() + ".tag_release"));
      exec(c, "SET snapds.snapshot.tag=release");
      assertEquals(oldRows, query(c, "SELECT * FROM " + t.table()), "the session setting");
    }
  }

  @Test
  void insertOverwritePublishesExactlyOneSnapshot() throws Exception {
    try (Connection c = hs2.connect()) {
      Gens source = gens(c, "src");
      SnapshotId sourceSnapshot = publish(source.dataset(), 1, 12).id();
      Gens target = gens(c, "dst");
      SnapshotId before = publish(target.dataset(), 5, 3).id();
      List<SnapshotInfo> snapshotsBefore = target.dataset().snapshots();

      exec(c, "INSERT OVERWRITE TABLE " + target.table() + " SELECT concat('new-', sku), gen * 10, upper(name) FROM "
          + source.table());

      List<SnapshotInfo> added = target.dataset().snapshots().stream()
          .filter(s -> snapshotsBefore.stream().noneMatch(b -> b.id().equals(s.id()))).collect(Collectors.toList());
      assertEquals(1, added.size(), "one snapshot was written: " + added);
      SnapshotInfo published = added.get(0);
      assertEquals(published.id(), target.dataset().currentSnapshot().orElseThrow().id(), "and it is current");
      assertTrue(published.id().isAfter(before));
      assertEquals(SnapshotState.COMMITTED, published.state());
      assertEquals(12, published.rowCount(), "the record counts the rows");
      List<String> expected = javaRows(source.dataset(), sourceSnapshot).stream().map(r -> {
        String[] f = r.split("\t", -1);
        return "new-" + f[0] + "\t" + Integer.parseInt(f[1]) * 10 + "\t" + f[2].toUpperCase();
      }).collect(Collectors.toList());
      assertEquals(expected, javaRows(target.dataset(), published.id()), "the snapshot holds the query's rows");
      assertEquals(expected, query(c, "SELECT * FROM " + target.table()), "and a JDBC session reads them back");
      assertEquals(3, javaRows(target.dataset(), before).size(), "the previous snapshot is untouched");
    }
  }

  private static int livePins(Gens t, SnapshotId snapshot) {
    return new LockTable(MiniCluster.get().connection(), t.id().lockTable(), Clock.systemUTC()).livePins(snapshot);
  }

  /**
   * A BI tool's session that runs one query, reads its rows and disconnects: the rows of a fetch
   * task are read after Hive considers the query executed, so its pin stays until the session's
   * next query; a session that ends instead must release it, or the pin (renewed while the server
   * runs) keeps the snapshot's rows from cleanup long after anyone reads them.
   */
  @Test
  void aSessionThatEndsAfterAQueryReleasesItsPins() throws Exception {
    Gens t;
    SnapshotId current;
    try (Connection c = hs2.connect()) {
      t = gens(c, "pins");
      current = publish(t.dataset(), 1, 4).id();
      assertEquals(javaRows(t.dataset(), current), query(c, "SELECT * FROM " + t.table()));
      assertEquals(1, livePins(t, current), "the fetch task's pin is held while the session lasts");
    }
    assertEquals(0, livePins(t, current), "closing the session released the pin of its last query");
  }

  /** Rows of generation g in the concurrency test: 10 + 5g. */
  private static int rowsOf(int g) {
    return 10 + 5 * g;
  }

  @Test
  void twoSessionsReadingWhileAThirdPublishesEachGetOneWholeSnapshot() throws Exception {
    int generations = 3;
    Gens source;
    Gens target;
    SnapshotId first;
    try (Connection c = hs2.connect()) {
      source = gens(c, "csrc");
      publish(source.dataset(), 0, rowsOf(generations));
      target = gens(c, "cdst");
      first = publish(target.dataset(), 0, rowsOf(0)).id();
    }
    AtomicBoolean writerDone = new AtomicBoolean();
    CountDownLatch firstReads = new CountDownLatch(2);
    List<List<Integer>> seen = List.of(new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        List<Integer> mine = seen.get(r);
        readers.add(pool.submit(() -> {
          try (Connection c = hs2.connect()) {
            boolean last = false;
            while (!last) {
              last = writerDone.get(); // one more read after the writer is done
              List<String> rows = query(c, "SELECT sku, gen FROM " + target.table());
              Set<Integer> gens = rows.stream().map(x -> Integer.parseInt(x.split("\t")[1])).collect(Collectors.toCollection(TreeSet::new));
              assertEquals(1, gens.size(), "one snapshot's rows, not a mix: " + gens);
              int g = gens.iterator().next();
              List<String> expected = new ArrayList<>();
              for (int i = 0; i < rowsOf(g); i++) {
                expected.add(sku(i) + "\t" + g);
              }
              assertEquals(expected, rows, "the whole of generation " + g);
              mine.add(g);
              firstReads.countDown();
            }
          }
          return null;
        }));
      }
      Future<?> writer = pool.submit(() -> {
        firstReads.await();
        try (Connection c = hs2.connect()) {
          for (int g = 1; g <= generations; g++) {
            exec(c, "INSERT OVERWRITE TABLE " + target.table() + " SELECT sku, " + g + ", name FROM " + source.table()
                + " WHERE sku < '" + sku(rowsOf(g)) + "'");
          }
        } finally {
          writerDone.set(true);
        }
        return null;
      });
      writer.get(5, TimeUnit.MINUTES);
      for (Future<?> f : readers) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    for (List<Integer> mine : seen) {
      System.out.println("generations one reading session saw, in order: " + mine);
      for (int i = 1; i < mine.size(); i++) {
        assertTrue(mine.get(i) >= mine.get(i - 1), "a session never goes back to an older snapshot: " + mine);
      }
      assertEquals(generations, mine.get(mine.size() - 1), "the last read sees the last publish: " + mine);
    }
    // (generation 0 may have been expired by the dataset's retention since)
    List<SnapshotInfo> written = target.dataset().snapshots().stream().filter(s -> s.id().isAfter(first))
        .sorted(Comparator.comparing(s -> s.id().value())).collect(Collectors.toList());
    assertEquals(generations, written.size(), "one snapshot per insert: " + written);
    for (int g = 1; g <= generations; g++) {
      SnapshotInfo s = written.get(g - 1);
      assertEquals(SnapshotState.COMMITTED, s.state());
      assertEquals(rowsOf(g), s.rowCount(), "generation " + g + "'s record");
    }
    assertEquals(written.get(generations - 1).id(), target.dataset().currentSnapshot().orElseThrow().id());
  }

  @Test
  void aQuerysErrorReachesTheClientNamingTheBadValue() throws Exception {
    try (Connection c = hs2.connect()) {
      Gens t = gens(c, "errors");
      SnapshotId current = publish(t.dataset(), 1, 3).id();
      SQLException tag = assertThrows(SQLException.class,
          () -> query(c, "SELECT * FROM default." + t.table() + ".tag_nightly"));
      assertContains("nightly", tag.getMessage());
      assertContains(t.id().toString(), tag.getMessage());

      SnapshotId unknown = SnapshotId.of(current.value() + 12345);
      SQLException id = assertThrows(SQLException.class,
          () -> query(c, "SELECT * FROM " + t.table() + " FOR SYSTEM_VERSION AS OF " + unknown));
      assertContains("snapshot " + unknown + " does not exist in dataset " + t.id(), id.getMessage());

      exec(c, "SET snapds.snapshot.id=12x");
      SQLException setting = assertThrows(SQLException.class, () -> query(c, "SELECT * FROM " + t.table()));
      assertContains("12x", setting.getMessage());
      exec(c, "SET snapds.snapshot.id=" + current);

      assertEquals(javaRows(t.dataset(), current), query(c, "SELECT * FROM " + t.table()), "the session still works");
    }
  }
}
