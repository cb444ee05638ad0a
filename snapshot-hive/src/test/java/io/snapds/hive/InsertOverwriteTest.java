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

  // ---- staging: write, audit, publish (issue 39) ----

  /**
   * Under {@code SET snapds.write.stage=true} the insert stages its snapshot: a SELECT still returns
   * the old rows, selecting the staged id (in the query, by session setting, through the id the
   * insert left in the session) returns the new ones, and once published a plain SELECT does.
   */
  @Test
  void underTheStageSettingAnInsertStagesAndSelectsSeeItOnlyByIdUntilPublished() throws Exception {
    Prices source = Prices.create(hive, "stagesrc");
    SnapshotId sourceSnapshot = source.publish(1, 12).id();
    Prices target = Prices.create(hive, "staged");
    SnapshotId before = target.publish(5, 3).id();
    List<String> oldRows = hive.sql("SELECT * FROM " + target.table);
    assertEquals(target.rows(before, RowScan.all()), oldRows);
    hive.set(HiveTableProperties.STAGED_SNAPSHOT, null);

    hive.sqlWith(HiveTableProperties.WRITE_STAGE, "true",
        "INSERT OVERWRITE TABLE " + target.table + " " + TRANSFORM + source.table);

    assertEquals(before, target.dataset.currentSnapshot().orElseThrow().id(), "nothing new is current");
    List<SnapshotInfo> staged = target.dataset.stagedSnapshots();
    assertEquals(1, staged.size(), "one snapshot staged: " + staged);
    SnapshotId stagedId = staged.get(0).id();
    assertEquals(SnapshotState.STAGED, staged.get(0).state());
    assertEquals(12, staged.get(0).rowCount());
    assertEquals(stagedId.toString(), hive.conf().get(HiveTableProperties.STAGED_SNAPSHOT),
        "the session says which snapshot the insert staged");
    List<String> expected = transformed(source, sourceSnapshot);
    assertEquals(expected, target.rows(stagedId, RowScan.all()), "the staged snapshot holds the query's rows");

    assertEquals(oldRows, hive.sql("SELECT * FROM " + target.table), "a SELECT still reads the old snapshot");
    assertEquals(expected, hive.sql("SELECT * FROM " + target.table + " FOR SYSTEM_VERSION AS OF " + stagedId));
    assertEquals(expected, hive.sql("SELECT * FROM " + target.table
        + " FOR SYSTEM_VERSION AS OF ${hiveconf:" + HiveTableProperties.STAGED_SNAPSHOT + "}"));
    // a MapReduce job (an aggregate) reading the staged snapshot by session setting
    assertEquals(List.of("12"), hive.sqlWith(HiveTableProperties.SNAPSHOT_ID, stagedId.toString(),
        "SELECT count(*) FROM " + target.table));
    assertEquals(List.of("3"), hive.sql("SELECT count(*) FROM " + target.table));

    target.dataset.publish(stagedId);
    assertEquals(stagedId, target.dataset.currentSnapshot().orElseThrow().id());
    assertEquals(expected, hive.sql("SELECT * FROM " + target.table), "published, it is what a SELECT reads");
  }

  /**
   * The table property stages too, and wins over the session setting; a staging insert that fails
   * stages nothing; a value that is neither true nor false fails compilation naming it.
   */
  @Test
  void theStageTablePropertyStagesAFailedInsertStagesNothingAndABadValueIsRefused() throws Exception {
    Prices source = Prices.create(hive, "stagepropsrc");
    source.publish(1, 10);
    Prices target = Prices.create(hive, "stageprop");
    SnapshotId before = target.publish(1, 4).id();
    hive.sql("ALTER TABLE " + target.table + " SET TBLPROPERTIES ('" + HiveTableProperties.WRITE_STAGE + "'='true')");

    assertThrows(CommandProcessorException.class, () -> hive.sql("INSERT OVERWRITE TABLE " + target.table
        + " SELECT fail_on(sku, 'sku007'), price, qty, name, active, ts, raw FROM " + source.table));
    assertTrue(target.dataset.stagedSnapshots().isEmpty(), "the failed insert staged nothing");
    assertEquals(1, target.dataset.snapshots().stream().filter(s -> s.state() == SnapshotState.ABORTED).count());
    assertEquals(before, target.dataset.currentSnapshot().orElseThrow().id());

    hive.sqlWith(HiveTableProperties.WRITE_STAGE, "false", "INSERT OVERWRITE TABLE " + target.table + " "
        + TRANSFORM + source.table);
    assertEquals(before, target.dataset.currentSnapshot().orElseThrow().id(), "the table property wins");
    assertEquals(1, target.dataset.stagedSnapshots().size());
    assertEquals(4, hive.sql("SELECT * FROM " + target.table).size());

    hive.sql("ALTER TABLE " + target.table + " SET TBLPROPERTIES ('" + HiveTableProperties.WRITE_STAGE + "'='maybe')");
    int snapshots = target.dataset.snapshots().size();
    CommandProcessorException e = assertThrows(CommandProcessorException.class,
        () -> hive.sql("INSERT OVERWRITE TABLE " + target.table + " " + TRANSFORM + source.table));
    String all = e.getMessage() + (e.getCause() == null ? "" : " | " + e.getCause().getMessage());
    assertTrue(all.contains("table property snapds.write.stage must be true or false, got 'maybe'"), all);
    assertEquals(snapshots, target.dataset.snapshots().size(), "nothing was begun");
  }

  /** What {@link #TRANSFORM} makes of a snapshot of {@code source}, as Hive prints it. */
  private static List<String> transformed(Prices source, SnapshotId snapshot) {
    return source.rows(snapshot, RowScan.all()).stream().map(r -> {
      String[] c = r.split("\t", -1);
      return String.join("\t", "new-" + c[0], Double.toString(Double.parseDouble(c[1]) * 2), c[2],
          c[3].equals("NULL") ? "NULL" : c[3].toUpperCase(), Boolean.toString(!Boolean.parseBoolean(c[4])), c[5], c[6]);
    }).collect(Collectors.toList());
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
