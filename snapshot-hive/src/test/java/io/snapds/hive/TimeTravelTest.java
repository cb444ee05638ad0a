package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reading a retained older snapshot: by id or time in the query (FOR SYSTEM_VERSION / SYSTEM_TIME
 * AS OF), by tag ({@code db.table.tag_<name>}), by session setting, by table property; and joining
 * it with today's.
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimeTravelTest {
  private EmbeddedHive hive;
  private Prices prices;
  private SnapshotId old;
  private SnapshotId today;
  private String oldTime;

  @BeforeAll
  void setUp() throws Exception {
    hive = EmbeddedHive.get();
    prices = Prices.create(hive, "tt");
    old = prices.publish(1, 20).id();
    today = prices.publish(2, 30).id();
    Instant oldAt = prices.dataset.history().stream().filter(h -> h.snapshot().equals(old))
        .map(HistoryEntry::at).findFirst().orElseThrow();
    // Hive reads SYSTEM_TIME AS OF in the session's time zone
    oldTime = LocalDateTime.ofInstant(oldAt, hive.conf().getLocalTimeZone())
        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"));
  }

  @Test
  void forSystemVersionAsOf() throws Exception {
    assertEquals(prices.rows(old, RowScan.all()),
        hive.sql("SELECT * FROM " + prices.table + " FOR SYSTEM_VERSION AS OF " + old));
  }

  @Test
  void forSystemTimeAsOf() throws Exception {
    assertEquals(prices.rows(old, RowScan.all()),
        hive.sql("SELECT * FROM " + prices.table + " FOR SYSTEM_TIME AS OF '" + oldTime + "'"));
  }

  @Test
  void sessionSettings() throws Exception {
    assertEquals(List.of("20"), hive.sqlWith(HiveTableProperties.SNAPSHOT_ID, old.toString(),
        "SELECT count(*) FROM " + prices.table));
    assertEquals(List.of("20"), hive.sqlWith(HiveTableProperties.SNAPSHOT_AS_OF, isoUtc(old),
        "SELECT count(*) FROM " + prices.table));
    assertEquals(List.of("30"), hive.sql("SELECT count(*) FROM " + prices.table));
  }

  @Test
  void aTagByTableReferenceSettingAndTableProperty() throws Exception {
    // a tag of its own: the other tests read this dataset's snapshots by id and time only
    prices.dataset.manageTags(old).tag("release").commit();
    assertEquals(prices.rows(old, RowScan.all()), hive.sql("SELECT * FROM default." + prices.table + ".tag_release"));
    assertEquals(List.of("20"), hive.sqlWith(HiveTableProperties.SNAPSHOT_TAG, "release",
        "SELECT count(*) FROM " + prices.table));
    String tagged = prices.table + "_release";
    hive.sql("CREATE EXTERNAL TABLE " + tagged + " (" + Prices.COLUMNS + ") STORED BY '"
        + SnapshotStorageHandler.class.getName() + "' TBLPROPERTIES ('snapds.dataset'='" + prices.id
        + "', 'snapds.columns.mapping'='" + Prices.MAPPING + "', 'snapds.snapshot.tag'='release')");
    assertEquals(List.of("20"), hive.sql("SELECT count(*) FROM " + tagged));
    assertEquals(expectedJoin(), hive.sql("SELECT cur.sku, prev.price, cur.price FROM " + prices.table
        + " cur JOIN default." + prices.table + ".tag_release prev ON cur.sku = prev.sku ORDER BY cur.sku"));

    // a tag is resolved per query: once moved, the next query reads where it points now
    prices.dataset.manageTags(old).untag("release").commit();
    prices.dataset.manageTags(today).tag("release").commit();
    assertEquals(List.of("30"), hive.sql("SELECT count(*) FROM " + tagged));
    assertEquals(List.of("30"), hive.sql("SELECT count(*) FROM default." + prices.table + ".tag_release"));
  }

  private String isoUtc(SnapshotId snapshot) {
    return prices.dataset.history().stream().filter(h -> h.snapshot().equals(snapshot))
        .map(h -> h.at().toString()).findFirst().orElseThrow();
  }

  /** Old and new price of every key in both snapshots, through the Java API. */
  private List<String> expectedJoin() {
    Map<String, String> oldPrice = new TreeMap<>();
    for (String r : prices.rows(old, RowScan.all())) {
      oldPrice.put(Prices.column(r, 0), Prices.column(r, 1));
    }
    List<String> out = new ArrayList<>();
    for (String r : prices.rows(today, RowScan.all())) {
      String sku = Prices.column(r, 0);
      if (oldPrice.containsKey(sku)) {
        out.add(sku + "\t" + oldPrice.get(sku) + "\t" + Prices.column(r, 1));
      }
    }
    return out;
  }

  @Test
  void joinTodayWithAnOlderSnapshotById() throws Exception {
    assertEquals(expectedJoin(), hive.sql("SELECT cur.sku, prev.price, cur.price FROM " + prices.table + " cur JOIN "
        + prices.table + " FOR SYSTEM_VERSION AS OF " + old + " prev ON cur.sku = prev.sku ORDER BY cur.sku"));
  }

  @Test
  void joinTodayWithAnOlderSnapshotByTime() throws Exception {
    assertEquals(expectedJoin(), hive.sql("SELECT cur.sku, prev.price, cur.price FROM " + prices.table + " cur JOIN "
        + prices.table + " FOR SYSTEM_TIME AS OF '" + oldTime + "' prev ON cur.sku = prev.sku ORDER BY cur.sku"));
  }

  /**
   * Without a map join, Hive's MapReduce engine would feed one scan to both references of the
   * table: the query must fail, naming the way out, instead of joining a snapshot with itself.
   */
  @Test
  void aSharedScanOfTwoSnapshotsFailsClearly() {
    CommandProcessorException e = assertThrows(CommandProcessorException.class,
        () -> hive.sqlWith("hive.auto.convert.join", "false", "SELECT cur.sku, prev.price, cur.price FROM "
            + prices.table + " cur JOIN " + prices.table + " FOR SYSTEM_VERSION AS OF " + old
            + " prev ON cur.sku = prev.sku"));
    StringBuilder all = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      all.append(" | ").append(t.getMessage());
    }
    assertTrue(all.toString().contains("one map stage reads table " + prices.table + " at different snapshots"),
        all.toString());
  }

  @Test
  void joinWithATablePinnedToAnOlderSnapshot() throws Exception {
    String pinned = prices.table + "_old";
    hive.sql("CREATE EXTERNAL TABLE " + pinned + " (" + Prices.COLUMNS + ") STORED BY '"
        + SnapshotStorageHandler.class.getName() + "' TBLPROPERTIES ('snapds.dataset'='" + prices.id
        + "', 'snapds.columns.mapping'='" + Prices.MAPPING + "', 'snapds.snapshot.id'='" + old + "')");
    assertEquals(expectedJoin(), hive.sql("SELECT cur.sku, prev.price, cur.price FROM " + prices.table + " cur JOIN "
        + pinned + " prev ON cur.sku = prev.sku ORDER BY cur.sku"));
  }
}
