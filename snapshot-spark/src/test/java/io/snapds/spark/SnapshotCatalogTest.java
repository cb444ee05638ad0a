package io.snapds.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The catalog through Spark SQL: namespaces, tables, create, write, read, drop. */
@ExtendWith(MiniClusterExtension.class)
class SnapshotCatalogTest {
  private final MiniCluster cluster;
  private final SparkSession spark;

  SnapshotCatalogTest(MiniCluster cluster) {
    this.cluster = cluster;
    this.spark = SparkTests.spark(cluster);
  }

  @Test
  void createWriteReadAndDropThroughSql() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("catalog");
    String table = "snapds." + id.namespace() + "." + id.name();
    SparkTests.create(cluster, MiniCluster.uniqueDataset("other"), "k long key").close(); // the namespace exists

    spark.sql("CREATE TABLE " + table + " (name STRING NOT NULL, day DATE, id BIGINT NOT NULL, price DECIMAL(10,2))"
        + " TBLPROPERTIES ('key' = 'id,name')");
    try (SnapshotDataset ds = cluster.datasets().open(id)) {
      Schema schema = ds.schema().orElseThrow();
      assertEquals(List.of("id", "name"), schema.keyFields().stream().map(f -> f.name()).toList());
      assertEquals("id long key, name string key, day date, price decimal(10,2)", schema.toString());

      List<String> tables = spark.sql("SHOW TABLES IN snapds." + id.namespace()).collectAsList().stream()
          .map(r -> r.getString(1)).toList();
      assertTrue(tables.contains(id.name()), tables.toString());
      List<String> namespaces = spark.sql("SHOW NAMESPACES IN snapds").collectAsList().stream()
          .map(r -> r.getString(0)).toList();
      assertTrue(namespaces.contains(id.namespace()), namespaces.toString());

      // the key columns come first (their order in the key is not the order they were declared in)
      assertEquals(List.of("id", "name", "day", "price"), List.of(spark.table(table).schema().fieldNames()));
      spark.sql("INSERT OVERWRITE " + table + " SELECT 2L AS id, 'a' AS name, DATE'2026-12-06' AS day,"
          + " CAST(1.25 AS DECIMAL(10,2)) AS price UNION ALL SELECT 1L, 'b', NULL, NULL");
      SnapshotInfo first = ds.currentSnapshot().orElseThrow();
      assertEquals(2, first.rowCount());
      List<SchemaRecord> stored = SparkTests.readJava(ds, first.id());
      assertEquals(List.of(1L, 2L), stored.stream().map(r -> r.getLong("id")).toList());
      assertEquals(new java.math.BigDecimal("1.25"), stored.get(1).getDecimal("price"));

      spark.range(10, 13).selectExpr("concat('x', id) AS name", "CAST(NULL AS DATE) AS day", "id",
          "CAST(id AS DECIMAL(10,2)) AS price").writeTo(table).overwrite(functions.lit(true));
      SnapshotInfo second = ds.currentSnapshot().orElseThrow();
      assertEquals(SnapshotState.COMMITTED, second.state());
      assertEquals(List.of(10L, 11L, 12L), spark.sql("SELECT id FROM " + table + " ORDER BY id").collectAsList()
          .stream().map((Row r) -> r.getLong(0)).toList());
      assertEquals(List.of(1L, 2L), spark.sql("SELECT id FROM " + table + " VERSION AS OF " + first.id()
          + " ORDER BY id").collectAsList().stream().map((Row r) -> r.getLong(0)).toList());
    }

    // the metadata tables
    List<Row> snapshots = spark.sql("SELECT snapshot_id, state, row_count FROM " + table + ".snapshots ORDER BY snapshot_id")
        .collectAsList();
    assertEquals(2, snapshots.size());
    assertEquals(List.of(2L, 3L), snapshots.stream().map(r -> r.getLong(2)).toList());
    try (SnapshotDataset ds = cluster.datasets().open(id)) {
      SnapshotInfo current = ds.currentSnapshot().orElseThrow();
      ds.manageTags(current.id()).tag("release").commit();
      assertEquals(current.id().value(), snapshots.get(1).getLong(0));
      assertEquals(List.of("release:" + current.id().value()), spark.sql("SELECT tag, snapshot_id FROM " + table
          + ".tags").collectAsList().stream().map(r -> r.getString(0) + ":" + r.getLong(1)).toList());
      List<Long> history = spark.sql("SELECT snapshot_id FROM " + table + ".history ORDER BY at").collectAsList()
          .stream().map(r -> r.getLong(0)).toList();
      assertEquals(current.id().value(), history.get(history.size() - 1));
    }

    spark.sql("DROP TABLE " + table);
    assertFalse(cluster.datasets().exists(id));
  }

  @Test
  void aNamespaceWhoseTablesWereDroppedDropsWithTheirKeyNumbers() throws Exception {
    String ns = "dropns" + Long.toHexString(System.nanoTime());
    spark.sql("CREATE NAMESPACE snapds." + ns);
    spark.sql("CREATE TABLE snapds." + ns + ".t (id BIGINT NOT NULL) TBLPROPERTIES ('key' = 'id')");
    spark.sql("INSERT OVERWRITE snapds." + ns + ".t SELECT 1L AS id");
    // a namespace that still holds a dataset is not dropped without CASCADE
    assertThrows(Exception.class, () -> spark.sql("DROP NAMESPACE snapds." + ns));
    spark.sql("DROP TABLE snapds." + ns + ".t"); // leaves the namespace's table of dropped key numbers
    spark.sql("DROP NAMESPACE snapds." + ns);
    assertFalse(spark.sql("SHOW NAMESPACES IN snapds").collectAsList().stream().anyMatch(r -> r.getString(0)
        .equals(ns)), "the namespace is gone");
    try (org.apache.hadoop.hbase.client.Admin admin = cluster.connection().getAdmin()) {
      assertFalse(java.util.Arrays.stream(admin.listNamespaces()).anyMatch(ns::equals), "HBase's namespace is gone");
    }
  }

  @Test
  void aTagTableReadsTheTaggedSnapshot() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("tagtable");
    String table = "snapds." + id.namespace() + "." + id.name();
    try (SnapshotDataset ds = SparkTests.create(cluster, id, "id long key, v string")) {
      io.snapds.dataset.SnapshotId first = SparkTests.writeJava(ds, List.of(java.util.Map.of("id", 1L, "v", "a"),
          java.util.Map.of("id", 2L, "v", "b")));
      ds.manageTags(first).tag("release").commit();
      SparkTests.writeJava(ds, List.of(java.util.Map.of("id", 7L, "v", "c")));

      assertEquals(List.of(1L, 2L), spark.sql("SELECT id FROM " + table + ".tag_release ORDER BY id").collectAsList()
          .stream().map((Row r) -> r.getLong(0)).toList());
      assertEquals(List.of(7L), spark.sql("SELECT id FROM " + table).collectAsList().stream()
          .map((Row r) -> r.getLong(0)).toList());
      assertEquals(List.of(1L, 2L), spark.table(table + ".tag_release").orderBy("id").collectAsList().stream()
          .map((Row r) -> r.getLong(0)).toList());

      // a tag's table is read only: a write would replace the whole dataset, not the tagged snapshot
      org.junit.jupiter.api.Assertions.assertThrows(org.apache.spark.sql.AnalysisException.class, () -> spark
          .sql("SELECT 9L AS id, 'z' AS v").writeTo(table + ".tag_release").overwrite(functions.lit(true)));
      assertEquals(List.of(7L), SparkTests.readJava(ds, ds.currentSnapshot().orElseThrow().id()).stream()
          .map(r -> r.getLong("id")).toList());

      // a tag that does not exist is a table that does not exist, named in the error
      org.apache.spark.sql.AnalysisException e = org.junit.jupiter.api.Assertions.assertThrows(
          org.apache.spark.sql.AnalysisException.class, () -> spark.sql("SELECT * FROM " + table + ".tag_nope"));
      assertTrue(e.getMessage().contains("TABLE_OR_VIEW_NOT_FOUND") && e.getMessage().contains("tag_nope"),
          e.getMessage());
      SnapshotCatalog catalog = (SnapshotCatalog) spark.sessionState().catalogManager().catalog("snapds");
      org.apache.spark.sql.connector.catalog.Identifier nope = org.apache.spark.sql.connector.catalog.Identifier.of(
          new String[] {id.namespace(), id.name()}, "tag_nope");
      assertFalse(catalog.tableExists(nope));
      org.junit.jupiter.api.Assertions.assertThrows(org.apache.spark.sql.catalyst.analysis.NoSuchTableException.class,
          () -> catalog.loadTable(nope));
    }
  }
}
