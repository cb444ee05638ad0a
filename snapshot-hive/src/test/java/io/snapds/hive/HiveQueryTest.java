package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Plain SQL over the current snapshot: every query's result equals the same computation done
 * through the Java API on the same snapshot.
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HiveQueryTest {
  private static final int ROWS = 40;
  private EmbeddedHive hive;
  private Prices prices;
  private SnapshotId current;

  @BeforeAll
  void setUp() throws Exception {
    hive = EmbeddedHive.get();
    prices = Prices.create(hive, "q");
    prices.publish(1, 5);
    current = prices.publish(2, ROWS).id(); // the older snapshot must not leak into any result
  }

  @Test
  void selectStarReturnsTheCurrentSnapshot() throws Exception {
    List<String> expected = prices.rows(current, RowScan.all());
    assertEquals(ROWS, expected.size());
    assertEquals(expected, hive.sql("SELECT * FROM " + prices.table));
  }

  @Test
  void keyLookup() throws Exception {
    SnapshotRow row = prices.dataset.readSnapshot(current).get(Bytes.toBytes("sku007")).orElseThrow();
    assertEquals(List.of(Prices.format(row)), hive.sql("SELECT * FROM " + prices.table + " WHERE sku = 'sku007'"));
    assertEquals(List.of(), hive.sql("SELECT * FROM " + prices.table + " WHERE sku = 'sku999'"));
  }

  @Test
  void keyRange() throws Exception {
    List<String> expected = prices.rows(current, RowScan.all().range(Bytes.toBytes("sku010"), Bytes.toBytes("sku020")));
    assertEquals(10, expected.size());
    assertEquals(expected, hive.sql("SELECT * FROM " + prices.table + " WHERE sku >= 'sku010' AND sku < 'sku020'"));
  }

  @Test
  void keyIn() throws Exception {
    List<String> expected = prices.rows(current, RowScan.all()).stream()
        .filter(r -> List.of("sku003", "sku030").contains(Prices.column(r, 0))).collect(Collectors.toList());
    assertEquals(2, expected.size());
    assertEquals(expected,
        hive.sql("SELECT * FROM " + prices.table + " WHERE sku IN ('sku030', 'sku003', 'nope') ORDER BY sku"));
  }

  @Test
  void countStar() throws Exception {
    assertEquals(List.of(Integer.toString(prices.rows(current, RowScan.all()).size())),
        hive.sql("SELECT count(*) FROM " + prices.table));
  }

  @Test
  void groupBy() throws Exception {
    Map<Integer, double[]> groups = new TreeMap<>();
    for (String r : prices.rows(current, RowScan.all())) {
      double[] g = groups.computeIfAbsent(Integer.parseInt(Prices.column(r, 2)), k -> new double[2]);
      g[0]++;
      g[1] += Double.parseDouble(Prices.column(r, 1));
    }
    List<String> expected = groups.entrySet().stream()
        .map(e -> e.getKey() + "\t" + (long) e.getValue()[0] + "\t" + e.getValue()[1]).collect(Collectors.toList());
    assertEquals(expected,
        hive.sql("SELECT qty, count(*), sum(price) FROM " + prices.table + " GROUP BY qty ORDER BY qty"));
  }
}
