package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Row-key conditions reach the scan: the record readers return only the rows in the key ranges
 * (the snapds:ROWS_READ counter of the query's MapReduce job), and the answer is right. A handler
 * that dropped the pushed range would read every row here, the failure seen with Hive's own HBase
 * snapshot reader.
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeyPushdownTest {
  private static final int ROWS = 50;
  private EmbeddedHive hive;
  private Prices prices;
  private SnapshotId current;

  @BeforeAll
  void setUp() throws Exception {
    hive = EmbeddedHive.get();
    prices = Prices.create(hive, "push");
    current = prices.publish(1, ROWS).id();
  }

  /** Runs the query as a MapReduce job (not a fetch task) so that its counters are recorded. */
  private List<String> job(String where) throws Exception {
    return hive.sqlWith("hive.fetch.task.conversion", "none",
        "SELECT sku, name FROM " + prices.table + " WHERE " + where + " ORDER BY sku");
  }

  private long rowsRead() {
    return hive.counter(HiveTableProperties.COUNTER_GROUP, HiveTableProperties.ROWS_READ);
  }

  private List<String> expected(List<String> skus) {
    return prices.rows(current, RowScan.all()).stream().filter(r -> skus.contains(Prices.column(r, 0)))
        .map(r -> Prices.column(r, 0) + "\t" + Prices.column(r, 3)).collect(Collectors.toList());
  }

  @Test
  void equalityReadsOneRow() throws Exception {
    assertEquals(expected(List.of("sku007")), job("sku = 'sku007'"));
    assertEquals(1, rowsRead());
  }

  @Test
  void rangeReadsOnlyTheRange() throws Exception {
    List<String> inRange = prices.rows(current, RowScan.all().range(Bytes.toBytes("sku010"), Bytes.toBytes("sku021")))
        .stream().map(r -> Prices.column(r, 0)).collect(Collectors.toList());
    assertEquals(11, inRange.size());
    assertEquals(expected(inRange), job("sku > 'sku009' AND sku <= 'sku020'"));
    assertEquals(11, rowsRead());
  }

  @Test
  void betweenAndReversedOperands() throws Exception {
    assertEquals(expected(List.of("sku040", "sku041", "sku042")), job("sku BETWEEN 'sku040' AND 'sku042'"));
    assertEquals(3, rowsRead());
    assertEquals(expected(List.of("sku048", "sku049")), job("'sku048' <= sku"));
    assertEquals(2, rowsRead());
  }

  @Test
  void inReadsOnlyItsKeys() throws Exception {
    assertEquals(expected(List.of("sku002", "sku033")), job("sku IN ('sku033', 'sku002', 'sku999')"));
    assertEquals(2, rowsRead());
  }

  @Test
  void keyConditionsCombineWithOtherConditions() throws Exception {
    // the key range is pushed, the name condition is checked by Hive on the rows of the range
    assertEquals(expected(List.of("sku012")), job("sku >= 'sku010' AND sku < 'sku020' AND name LIKE '%12 g1'"));
    assertEquals(10, rowsRead());
  }

  @Test
  void contradictoryConditionsReadNothing() throws Exception {
    assertEquals(List.of(), job("sku = 'sku001' AND sku = 'sku002'"));
    assertEquals(0, rowsRead());
  }

  @Test
  void withoutKeyConditionsEveryRowIsRead() throws Exception {
    // the control: the counter does count every row of a full scan
    assertEquals(expected(List.of("sku012")), job("name = 'item 12 g1'"));
    assertEquals(ROWS, rowsRead());
  }
}
