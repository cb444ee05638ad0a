package io.snapds.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.snapds.cli.SnapdsCommand;
import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.schema.Type;
import io.snapds.dataset.testing.GoldenRecords;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * The golden records (every type, nulls, extreme values) written by the Java API and read by
 * Spark, and written by Spark and read by the Java API and by {@code snapds scan --json} (the
 * command line run in this JVM on the same cluster): each field equal, the published counts the
 * rows a reader gets. The Java API's read is also Hive's: the SerDe decodes each row with
 * {@code RowCodec} and the schema the snapshot was written with ({@code SchemaTable.decode}), as
 * {@link SparkTests#readJava} does; Hive itself is kept off Spark's class path.
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
  void theJavaApiAndTheCommandLineReadWhatSparkWrote() throws Exception {
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

      // snapds scan --json: one JSON object a row, in key order, each field in the CLI's typed text form
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine cli = SnapdsCommand.commandLine(options -> Environment.injected(cluster.connection(),
          cluster.txClient()));
      cli.setOut(new PrintWriter(out, true));
      cli.setErr(new PrintWriter(err, true));
      assertEquals(0, cli.execute("scan", id.toString(), "--json"), err.toString());
      ObjectMapper exact = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
      Schema schema = Schema.parse(GoldenRecords.schemaText());
      List<String> lines = out.toString().lines().toList();
      assertEquals(expected.size(), lines.size(), out.toString());
      for (int i = 0; i < expected.size(); i++) {
        JsonNode row = exact.readTree(lines.get(i));
        assertEquals(schema.fields().size(), row.size(), lines.get(i));
        for (Field f : schema.fields()) {
          Object want = expected.get(i).get(f.name());
          Object got = fromJson(f.type(), row.get(f.name()));
          if (want instanceof byte[] b) {
            assertArrayEquals(b, (byte[]) got, "scan --json record " + i + " field " + f.name());
          } else {
            assertEquals(want, got, "scan --json record " + i + " field " + f.name());
          }
        }
      }
    }
  }

  /** A value of the command line's JSON, parsed here (not with the command line's own parser). */
  private static Object fromJson(Type type, JsonNode v) {
    if (v == null || v.isNull()) {
      return null;
    }
    switch (type.kind()) {
      case BOOLEAN: return v.booleanValue();
      case INT: return v.intValue();
      case LONG: return v.longValue();
      case FLOAT: return Float.parseFloat(v.decimalValue().toString());
      case DOUBLE: return Double.parseDouble(v.decimalValue().toString());
      case STRING: return v.textValue();
      case BYTES: return Base64.getDecoder().decode(v.textValue());
      case DECIMAL: return new BigDecimal(v.textValue());
      case DATE: return LocalDate.parse(v.textValue());
      case TIMESTAMP: return LocalDateTime.parse(v.textValue());
      case TIMESTAMPTZ: return Instant.parse(v.textValue());
      default: throw new AssertionError(type);
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
