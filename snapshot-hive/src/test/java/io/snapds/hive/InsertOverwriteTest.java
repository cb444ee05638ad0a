package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * INSERT OVERWRITE writes a new snapshot and publishes it when the query succeeds; a query that
 * fails publishes nothing and leaves the dataset writable.
 */
@ExtendWith(MiniClusterExtension.class)
class InsertOverwriteTest {
  private final EmbeddedHive hive = EmbeddedHive.get();

  private static final String TRANSFORM =
      "SELECT concat('new-', sku), price * 2, qty, upper(name), NOT active, ts, raw FROM ";

  @Test
  void publishesANewSnapshotOnSuccess() throws Exception {
    Prices source = Prices.create(hive, "src");
    SnapshotId sourceSnapshot = source.publish(1, 12).id();
    Prices target = Prices.create(hive, "dst");
    SnapshotId before = target.publish(5, 3).id();

    hive.sql("INSERT OVERWRITE TABLE " + target.table + " " + TRANSFORM + source.table);

    SnapshotInfo published = target.dataset.currentSnapshot().orElseThrow();
    assertTrue(published.id().isAfter(before), "a new snapshot is current");
    assertEquals(SnapshotState.COMMITTED, published.state());
    assertEquals(12, published.rowCount());
    List<String> expected = source.rows(sourceSnapshot, RowScan.all()).stream().map(r -> {
      String[] c = r.split("\t", -1);
      return String.join("\t", "new-" + c[0], Double.toString(Double.parseDouble(c[1]) * 2), c[2],
          c[3].equals("NULL") ? "NULL" : c[3].toUpperCase(), Boolean.toString(!Boolean.parseBoolean(c[4])), c[5], c[6]);
    }).collect(Collectors.toList());
    assertEquals(expected, target.rows(published.id(), RowScan.all()), "the snapshot holds the query's rows");
    assertEquals(expected, hive.sql("SELECT * FROM " + target.table), "and Hive reads them back");
    assertEquals(3, target.rows(before, RowScan.all()).size(), "the previous snapshot is untouched");
  }

  @Test
  void overwritingATableFromItselfReadsThePreviousSnapshot() throws Exception {
    Prices prices = Prices.create(hive, "self");
    SnapshotId before = prices.publish(1, 8).id();
    hive.sql("INSERT OVERWRITE TABLE " + prices.table + " " + TRANSFORM + prices.table + " WHERE sku < 'sku005'");
    SnapshotInfo published = prices.dataset.currentSnapshot().orElseThrow();
    assertTrue(published.id().isAfter(before));
    assertEquals(List.of("new-sku000", "new-sku001", "new-sku002", "new-sku003", "new-sku004"),
        hive.sql("SELECT sku FROM " + prices.table));
  }

  @Test
  void aFailedQueryPublishesNothing() throws Exception {
    Prices source = Prices.create(hive, "failsrc");
    source.publish(1, 10);
    Prices target = Prices.create(hive, "failed");
    SnapshotId before = target.publish(1, 4).id();

    assertThrows(CommandProcessorException.class, () -> hive.sql("INSERT OVERWRITE TABLE " + target.table
        + " SELECT fail_on(sku, 'sku007'), price, qty, name, active, ts, raw FROM " + source.table));

    assertEquals(before, target.dataset.currentSnapshot().orElseThrow().id(), "nothing was published");
    List<SnapshotInfo> aborted = target.dataset.snapshots().stream()
        .filter(s -> s.state() == SnapshotState.ABORTED).collect(Collectors.toList());
    assertEquals(1, aborted.size(), "the failed query's snapshot was aborted: " + target.dataset.snapshots());
    assertEquals(4, hive.sql("SELECT * FROM " + target.table).size(), "readers still see the old snapshot");

    // the writer lock was released: the next insert publishes
    hive.sql("INSERT OVERWRITE TABLE " + target.table + " " + TRANSFORM + source.table);
    assertEquals(10, target.dataset.currentSnapshot().orElseThrow().rowCount());
  }

  @Test
  void insertIntoIsRejectedAtCompileTime() throws Exception {
    Prices prices = Prices.create(hive, "into");
    prices.publish(1, 2);
    CommandProcessorException e = assertThrows(CommandProcessorException.class,
        () -> hive.sql("INSERT INTO TABLE " + prices.table + " " + TRANSFORM + prices.table));
    String all = e.getMessage() + (e.getCause() == null ? "" : " | " + e.getCause().getMessage());
    assertTrue(all.contains("INSERT INTO is not supported"), all);
    assertEquals(1, prices.dataset.snapshots().size(), "nothing was begun");
  }

  @Test
  void withoutThePublishingHookAnInsertIsRejectedAtCompileTime() throws Exception {
    Prices prices = Prices.create(hive, "nohook");
    prices.publish(1, 2);
    CommandProcessorException e = assertThrows(CommandProcessorException.class, () -> hive.sqlWith(
        "hive.exec.post.hooks", "", "INSERT OVERWRITE TABLE " + prices.table + " " + TRANSFORM + prices.table));
    String all = e.getMessage() + (e.getCause() == null ? "" : " | " + e.getCause().getMessage());
    assertTrue(all.contains("add io.snapds.hive.SnapshotQueryHook to hive.exec.post.hooks"), all);
    assertEquals(1, prices.dataset.snapshots().size(), "nothing was begun");
  }
}
