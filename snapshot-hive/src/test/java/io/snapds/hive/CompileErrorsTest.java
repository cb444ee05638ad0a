package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Mistakes fail before any data is read, with a message that names the table, the dataset or the
 * snapshot: unknown and expired snapshots, a missing dataset, a bad column mapping.
 */
@ExtendWith(MiniClusterExtension.class)
class CompileErrorsTest {
  private final EmbeddedHive hive = EmbeddedHive.get();

  /** Runs a statement that must fail; returns every message of the failure's cause chain. */
  private String failure(String key, String value, String sql) {
    CommandProcessorException e = assertThrows(CommandProcessorException.class,
        () -> hive.sqlWith(key, value, sql), sql);
    StringBuilder all = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      all.append(" | ").append(t.getMessage());
    }
    assertEquals(0, hive.counter(HiveTableProperties.COUNTER_GROUP, HiveTableProperties.ROWS_READ),
        "no row was read");
    return all.toString();
  }

  private String failure(String sql) {
    return failure("snapds.test.unused", null, sql);
  }

  private static void assertContains(String expected, String actual) {
    assertTrue(actual.contains(expected), () -> "expected '" + expected + "' in: " + actual);
  }

  @Test
  void unknownSnapshotId() throws Exception {
    Prices prices = Prices.create(hive, "unknown");
    SnapshotId current = prices.publish(1, 3).id();
    SnapshotId unknown = SnapshotId.of(current.value() + 12345);
    String setting = failure(HiveTableProperties.SNAPSHOT_ID, unknown.toString(), "SELECT count(*) FROM " + prices.table);
    assertContains("snapshot " + unknown + " does not exist in dataset " + prices.id, setting);
    String clause = failure("SELECT count(*) FROM " + prices.table + " FOR SYSTEM_VERSION AS OF " + unknown);
    // from the semantic analyzer hook: the query fails to compile
    assertContains("SemanticException table default." + prices.table + " FOR SYSTEM_VERSION AS OF " + unknown
        + ": snapshot " + unknown + " does not exist in dataset " + prices.id, clause);
  }

  @Test
  void unknownTagAndABranch() throws Exception {
    Prices prices = Prices.create(hive, "untagged");
    prices.publish(1, 3);
    String setting = failure(HiveTableProperties.SNAPSHOT_TAG, "nightly", "SELECT count(*) FROM " + prices.table);
    assertContains("nightly", setting);
    assertContains(prices.id.toString(), setting);
    String reference = failure("SELECT count(*) FROM default." + prices.table + ".tag_nightly");
    assertContains("SemanticException table default." + prices.table + " (ref tag_nightly): ", reference);
    assertContains("nightly", reference.substring(reference.indexOf("(ref tag_nightly): ")));
    String branch = failure("SELECT count(*) FROM default." + prices.table + ".branch_dev");
    assertContains("table reference default." + prices.table + ".branch_dev: a snapshot dataset's table has tags",
        branch);
    assertEquals(List.of("3"), hive.sql("SELECT count(*) FROM " + prices.table), "the current snapshot still reads");
  }

  @Test
  void expiredSnapshotId() throws Exception {
    Prices prices = Prices.create(hive, "expired");
    SnapshotId first = prices.publish(1, 3).id();
    prices.publish(2, 4);
    prices.dataset.expireSnapshots().expire(first).commit();
    String setting = failure(HiveTableProperties.SNAPSHOT_ID, first.toString(), "SELECT * FROM " + prices.table);
    assertContains("snapshot " + first + " of dataset " + prices.id + " is EXPIRED, not readable", setting);
    String clause = failure("SELECT * FROM " + prices.table + " FOR SYSTEM_VERSION AS OF " + first);
    assertContains("SemanticException table default." + prices.table + " FOR SYSTEM_VERSION AS OF " + first
        + ": snapshot " + first + " of dataset " + prices.id + " is EXPIRED, not readable", clause);
    String time = failure("SELECT * FROM " + prices.table + " FOR SYSTEM_TIME AS OF '2000-01-01 00:00:00'");
    assertContains("FOR SYSTEM_TIME AS OF '2000-01-01 00:00:00': dataset " + prices.id + " had no current snapshot at",
        time);
    assertEquals(List.of("4"), hive.sql("SELECT count(*) FROM " + prices.table), "the current snapshot still reads");
  }

  @Test
  void timeBeforeTheFirstSnapshot() throws Exception {
    Prices prices = Prices.create(hive, "early");
    prices.publish(1, 3);
    String message = failure(HiveTableProperties.SNAPSHOT_AS_OF, "2000-01-01T00:00:00Z", "SELECT * FROM " + prices.table);
    assertContains("dataset " + prices.id + " had no current snapshot at 2000-01-01T00:00:00Z", message);
  }

  @Test
  void badSnapshotSetting() throws Exception {
    Prices prices = Prices.create(hive, "badsetting");
    prices.publish(1, 3);
    assertContains("invalid snapshot id 'yesterday'",
        failure(HiveTableProperties.SNAPSHOT_ID, "yesterday", "SELECT * FROM " + prices.table));
  }

  @Test
  void missingDataset() throws Exception {
    String atCreate = failure("CREATE EXTERNAL TABLE nope_t (k string, v string) STORED BY '"
        + SnapshotStorageHandler.class.getName() + "' TBLPROPERTIES ('snapds.dataset'='t:nope', "
        + "'snapds.columns.mapping'=':key,d:v')");
    assertContains("dataset t:nope not found", atCreate);

    // a table whose dataset was dropped after the table was created
    Prices prices = Prices.create(hive, "dropped");
    prices.publish(1, 3);
    MiniCluster.get().datasets().admin(prices.id).drop();
    assertContains("dataset " + prices.id + " not found", failure("SELECT * FROM " + prices.table));
  }

  @Test
  void badColumnMappings() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("mapping");
    MiniCluster.get().datasets().create(id, DatasetProperties.builder().families("d").build());
    String prefix = "CREATE EXTERNAL TABLE bad_mapping (k string, v string, n int) STORED BY '"
        + SnapshotStorageHandler.class.getName() + "' TBLPROPERTIES ('snapds.dataset'='" + id + "', "
        + "'snapds.columns.mapping'=";
    assertContains("snapds.columns.mapping ':key,d:v' has 2 entries but the table has 3 columns",
        failure(prefix + "':key,d:v')"));
    assertContains("has no :key entry", failure(prefix + "'d:k,d:v,d:n')"));
    assertContains("maps family 'x', which dataset " + id + " does not have", failure(prefix + "':key,d:v,x:n')"));
    assertContains("mapping 'd:n#q' of column n has an unknown suffix '#q'", failure(prefix + "':key,d:v,d:n#q')"));
    assertContains("table property snapds.dataset is missing",
        failure("CREATE EXTERNAL TABLE no_dataset (k string) STORED BY '" + SnapshotStorageHandler.class.getName()
            + "' TBLPROPERTIES ('snapds.columns.mapping'=':key')"));
    assertContains("column m has type map<string,string>, which cannot be mapped",
        failure("CREATE EXTERNAL TABLE map_column (k string, m map<string,string>) STORED BY '"
            + SnapshotStorageHandler.class.getName() + "' TBLPROPERTIES ('snapds.dataset'='" + id + "', "
            + "'snapds.columns.mapping'=':key,d:m')"));
  }
}
