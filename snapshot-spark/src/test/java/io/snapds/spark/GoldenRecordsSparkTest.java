package io.snapds.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.testing.GoldenRecords;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The golden records (every type, nulls, extreme values) written by the Java API and read by
 * Spark, and written by Spark and read by the Java API: each field equal, the published counts the
 * rows a reader gets.
 */
@ExtendWith(MiniClusterExtension.class)
class GoldenRecordsSparkTest {
  private final MiniCluster cluster;
  private final SparkSession spark;

  GoldenRecordsSparkTest(MiniCluster cluster) {
    this.cluster = cluster;
    this.spark = SparkTests.spark(cluster);
  }

  @Test
  void sparkReadsWhatTheJavaApiWrote() {
    DatasetId id = MiniCluster.uniqueDataset("golden_read");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, GoldenRecords.schemaText())) {
      SnapshotId snapshot = SparkTests.writeJava(ds, GoldenRecords.records());

      List<Row> rows = spark.read().format("snapds").option("dataset", id.toString()).load()
          .orderBy("id").collectAsList();

      assertRecordsEqual(GoldenRecords.records(), rows);
      assertEquals(snapshot, ds.currentSnapshot().orElseThrow().id());
    }
  }

  @Test
  void theJavaApiReadsWhatSparkWrote() {
    DatasetId id = MiniCluster.uniqueDataset("golden_write");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, GoldenRecords.schemaText())) {
      Dataset<Row> table = spark.read().format("snapds").option("dataset", id.toString()).load();
      List<Row> input = new ArrayList<>();
      for (Map<String, Object> r : GoldenRecords.records()) {
        input.add(RowFactory.create(GoldenRecords.names().stream().map(r::get).toArray()));
      }
      spark.createDataFrame(input, table.schema()).repartition(2)
          .write().format("snapds").option("dataset", id.toString()).mode("overwrite").save();

      SnapshotInfo published = ds.currentSnapshot().orElseThrow();
      assertEquals(SnapshotState.COMMITTED, published.state());
      List<SchemaRecord> read = SparkTests.readJava(ds, published.id());
      assertEquals(GoldenRecords.records().size(), read.size());
      assertEquals(read.size(), published.rowCount(), "published count = rows a reader gets");
      List<Map<String, Object>> expected = GoldenRecords.records();
      for (int i = 0; i < expected.size(); i++) {
        for (String f : GoldenRecords.names()) {
          Object want = expected.get(i).get(f);
          Object got = read.get(i).get(f);
          if (want instanceof byte[] b) {
            assertArrayEquals(b, (byte[]) got, "record " + i + " field " + f);
          } else {
            assertEquals(want, got, "record " + i + " field " + f);
          }
        }
      }
      // and Spark reads back what it wrote
      assertRecordsEqual(expected, spark.read().format("snapds").option("dataset", id.toString()).load()
          .orderBy("id").collectAsList());
    }
  }

  static void assertRecordsEqual(List<Map<String, Object>> expected, List<Row> rows) {
    assertEquals(expected.size(), rows.size());
    for (int i = 0; i < expected.size(); i++) {
      for (String f : GoldenRecords.names()) {
        Object want = expected.get(i).get(f);
        Object got = rows.get(i).get(rows.get(i).fieldIndex(f));
        if (want instanceof byte[] b) {
          assertArrayEquals(b, (byte[]) got, "record " + i + " field " + f);
        } else {
          assertEquals(want, got, "record " + i + " field " + f);
        }
      }
    }
  }
}
