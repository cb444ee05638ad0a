package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.SnapshotDataset;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Conditions on typed keys (an int key with negative values, a timestamp key) are pushed as key
 * ranges through the schema's order-preserving key encoding: the record readers fetch only the
 * rows in range (the snapds:ROWS_READ counter), and the answer is right; without a key condition
 * every row is read, so the counter is what the pushdown saved.
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TypedKeyPushdownTest {
  private static final int ROWS = 40;
  private EmbeddedHive hive;
  private String ints;
  private String times;

  @BeforeAll
  void setUp() throws Exception {
    hive = EmbeddedHive.get();
    DatasetId intId = MiniCluster.uniqueDataset("intkey");
    DatasetId tsId = MiniCluster.uniqueDataset("tskey");
    List<Map<String, Object>> intRows = new ArrayList<>();
    for (int n = -20; n < ROWS - 20; n++) {
      intRows.add(Map.of("n", n, "v", "v" + n));
    }
    List<Map<String, Object>> tsRows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      tsRows.add(Map.of("at", LocalDateTime.of(2026, 11, 30, 0, 0).plusHours(i).plusNanos(i * 1000L),
          "v", String.format("v%02d", i)));
    }
    try (SnapshotDataset a = TypedRows.create(intId, "n int key, v string");
        SnapshotDataset b = TypedRows.create(tsId, "at timestamp key, v string")) {
      TypedRows.publish(a, intRows);
      TypedRows.publish(b, tsRows);
    }
    ints = TypedRows.createTable(hive, intId, intId.name().toLowerCase(), "");
    times = TypedRows.createTable(hive, tsId, tsId.name().toLowerCase(), "");
  }

  private List<String> job(String sql) throws Exception {
    return hive.sqlWith("hive.fetch.task.conversion", "none", sql);
  }

  private long rowsRead() {
    return hive.counter(HiveTableProperties.COUNTER_GROUP, HiveTableProperties.ROWS_READ);
  }

  private static List<String> ints(int from, int to) {
    List<String> out = new ArrayList<>();
    for (int n = from; n <= to; n++) {
      out.add(n + "\tv" + n);
    }
    return out;
  }

  @Test
  void intRangeAcrossZeroReadsOnlyTheRange() throws Exception {
    assertEquals(ints(-3, 4), job("SELECT n, v FROM " + ints + " WHERE n >= -3 AND n < 5 ORDER BY n"));
    assertEquals(8, rowsRead());
  }

  @Test
  void intBetweenAndEquality() throws Exception {
    assertEquals(ints(-20, -18), job("SELECT n, v FROM " + ints + " WHERE n BETWEEN -25 AND -18 ORDER BY n"));
    assertEquals(3, rowsRead());
    assertEquals(ints(7, 7), job("SELECT n, v FROM " + ints + " WHERE n = 7"));
    assertEquals(1, rowsRead());
  }

  @Test
  void timestampRangeReadsOnlyTheRange() throws Exception {
    List<String> got = job("SELECT v FROM " + times + " WHERE at >= TIMESTAMP '2026-11-30 05:00:00'"
        + " AND at <= TIMESTAMP '2026-11-30 07:00:00.000007' ORDER BY v");
    assertEquals(List.of("v05", "v06", "v07"), got);
    assertEquals(3, rowsRead());
  }

  @Test
  void withoutKeyConditionsEveryRowIsRead() throws Exception {
    assertEquals(List.of("v7"), job("SELECT v FROM " + ints + " WHERE v = 'v7'"));
    assertEquals(ROWS, rowsRead());
  }
}
