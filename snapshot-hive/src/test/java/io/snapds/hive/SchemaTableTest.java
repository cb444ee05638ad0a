package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.schema.Type;
import io.snapds.dataset.testing.GoldenRecords;
import java.time.LocalDate;
import java.util.Map;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tables over datasets with a schema: created with no column list, their columns and types are
 * the dataset schema's, and every golden value reads back as the same value in Hive's types.
 * The golden rows are written by the core's own row codec, the bytes the CDAP sink writes too
 * (its test compares them), so this is the Hive leg of the interoperability proof.
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchemaTableTest {
  private EmbeddedHive hive;
  private DatasetId golden;

  @BeforeAll
  void setUp() throws Exception {
    hive = EmbeddedHive.get();
    golden = MiniCluster.uniqueDataset("golden");
    try (SnapshotDataset ds = TypedRows.create(golden, GoldenRecords.schemaText())) {
      TypedRows.publish(ds, GoldenRecords.records());
    }
    TypedRows.createTable(hive, golden, golden.name().toLowerCase(), "");
    setUpEvolution();
  }

  // ---- evolution: v1, v2 (added column), v3 (renamed and widened), one snapshot each ----
  private DatasetId evo;
  private SnapshotInfo s1;
  private SnapshotInfo s2;
  private SnapshotInfo s3;

  private void setUpEvolution() throws Exception {
    evo = MiniCluster.uniqueDataset("evo");
    try (SnapshotDataset ds = TypedRows.create(evo, "id int key, n int, name string")) {
      s1 = TypedRows.publish(ds, List.of(Map.of("id", 1, "n", -10, "name", "a")));
      ds.updateSchema(u -> u.addField("day", Type.DATE));
      s2 = TypedRows.publish(ds, List.of(Map.of("id", 2, "n", 20, "name", "b", "day", LocalDate.of(1969, 7, 20))));
      ds.updateSchema(u -> u.renameField("name", "label").widenField("n", Type.LONG));
      s3 = TypedRows.publish(ds, List.of(Map.of("id", 3, "n", 5_000_000_000L, "label", "c",
          "day", LocalDate.of(2026, 12, 2))));
    }
    TypedRows.createTable(hive, evo, "evo_now", "");
    TypedRows.createTable(hive, evo, "evo_v1", ", 'snapds.snapshot.id'='" + s1.id() + "'");
    TypedRows.createTable(hive, evo, "evo_v2", ", 'snapds.snapshot.id'='" + s2.id() + "'");
  }

  private List<String> columns(String table) throws Exception {
    return hive.sql("DESCRIBE " + table).stream().map(l -> l.replaceAll("\\s+", " ").trim())
        .map(l -> l.replace(" from deserializer", "")).toList();
  }

  @Test
  void eachSnapshotReadsWithItsOwnSchemaAndWithTheCurrentOne() throws Exception {
    // a table takes the schema of the snapshot it selects: v1's, v2's, the current v3
    assertEquals(List.of("id int", "n int", "name string"), columns("evo_v1"));
    assertEquals(List.of("id int", "n int", "name string", "day date"), columns("evo_v2"));
    assertEquals(List.of("id int", "n bigint", "label string", "day date"), columns("evo_now"));
    assertEquals(List.of("1\t-10\ta"), hive.sql("SELECT * FROM evo_v1"));
    assertEquals(List.of("2\t20\tb\t1969-07-20"), hive.sql("SELECT * FROM evo_v2"));
    assertEquals(List.of("3\t5000000000\tc\t2026-12-02"), hive.sql("SELECT * FROM evo_now"));

    // time travel on the current table: each old snapshot decoded with its own schema, projected
    // onto the table's columns by field id (renamed: by id; added later: NULL; widened: as bigint)
    assertEquals(List.of("1\t-10\ta\tNULL"), hive.sql("SELECT * FROM evo_now FOR SYSTEM_VERSION AS OF " + s1.id()));
    assertEquals(List.of("2\t20\tb\t1969-07-20"),
        hive.sql("SELECT id, n, label, day FROM evo_now FOR SYSTEM_VERSION AS OF " + s2.id()));
    assertEquals(List.of("1\t-10\ta\tNULL"), hive.sqlWith("hive.fetch.task.conversion", "none",
        "SELECT * FROM evo_now FOR SYSTEM_VERSION AS OF " + s1.id() + " WHERE n < 0"), "in a MapReduce task too");

    // the Java API gives the same: own schema, and projected onto the current one
    try (SnapshotDataset ds = MiniCluster.get().datasets().open(evo)) {
      Schema own = ds.schema(s1.id()).orElseThrow();
      Schema now = ds.schema().orElseThrow();
      SchemaRecord r;
      try (RowScanner rows = ds.readSnapshot(s1.id()).scan(RowScan.all())) {
        r = new RowCodec(own, "d").decode(rows.iterator().next());
      }
      assertEquals(Map.of("id", 1, "n", -10, "name", "a"), r.toMap());
      SchemaRecord projected = r.project(now);
      assertEquals(-10L, projected.getLong("n"));
      assertEquals("a", projected.getString("label"));
      assertTrue(projected.isNull("day"));
    }
  }

  @Test
  void columnsAndTypesComeFromTheSchema() throws Exception {
    assertEquals(List.of("id\tbigint", "flag\tboolean", "i\tint", "l\tbigint", "f\tfloat", "d\tdouble",
            "s\tstring", "b\tbinary", "amount\tdecimal(18,4)", "day\tdate", "at\ttimestamp", "at_tz\ttimestamp"),
        hive.sql("DESCRIBE " + golden.name().toLowerCase()).stream()
            .map(l -> l.replaceAll("\\s+", "\t").trim()).map(l -> l.split("\t")[0] + "\t" + l.split("\t")[1])
            .toList());
  }

  @Test
  void everyGoldenValueReadsBackEqual() throws Exception {
    assertEquals(GoldenHiveFormat.rows(), hive.sql("SELECT " + GoldenHiveFormat.selectList() + " FROM "
        + golden.name().toLowerCase() + " ORDER BY id"));
    // and through a MapReduce job (the SerDe in a task), not only the fetch task
    assertEquals(GoldenHiveFormat.rows(), hive.sqlWith("hive.fetch.task.conversion", "none", "SELECT "
        + GoldenHiveFormat.selectList() + " FROM " + golden.name().toLowerCase() + " ORDER BY id"));
  }

  @Test
  void aDatasetWithoutASchemaNeedsAMapping() {
    DatasetId bare = MiniCluster.uniqueDataset("bare");
    MiniCluster.get().datasets().create(bare, io.snapds.dataset.DatasetProperties.defaults());
    CommandProcessorException e = assertThrows(CommandProcessorException.class, () -> hive.sql(
        "CREATE EXTERNAL TABLE " + bare.name().toLowerCase() + " STORED BY '" + SnapshotStorageHandler.class.getName()
            + "' TBLPROPERTIES ('snapds.dataset'='" + bare + "')"));
    assertTrue(String.valueOf(e.getMessage()).contains("dataset " + bare + " has no schema"), e.getMessage());
  }
}
