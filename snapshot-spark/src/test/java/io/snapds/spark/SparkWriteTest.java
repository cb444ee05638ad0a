package io.snapds.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Writes through Spark: a failed job publishes nothing, a retried task publishes once, a run id publishes once. */
@ExtendWith(MiniClusterExtension.class)
class SparkWriteTest {
  private static final String SCHEMA = "id long key, name string, score int";
  /** Failures the flaky UDF threw (first attempts only). */
  static final AtomicInteger THROWN = new AtomicInteger();

  private final MiniCluster cluster;
  private final SparkSession spark;

  SparkWriteTest(MiniCluster cluster) {
    this.cluster = cluster;
    this.spark = SparkTests.spark(cluster);
  }

  private Dataset<Row> input(long n, String udfId) {
    return spark.range(0, n, 1, 2).selectExpr(udfId, "concat('n', id) AS name", "CAST(id % 7 AS INT) AS score");
  }

  private static SnapshotInfo newest(SnapshotDataset ds) {
    return ds.snapshots().stream().max(Comparator.comparingLong(s -> s.id().value())).orElseThrow();
  }

  private static void assertRows(SnapshotDataset ds, SnapshotId snapshot, long n) {
    List<SchemaRecord> read = SparkTests.readJava(ds, snapshot);
    assertEquals(LongStream.range(0, n).boxed().toList(), read.stream().map(r -> r.getLong("id")).toList());
    for (SchemaRecord r : read) {
      assertEquals("n" + r.getLong("id"), r.getString("name"));
      assertEquals((int) (r.getLong("id") % 7), r.getInt("score"));
    }
  }

  @Test
  void aFailedWritePublishesNothingAndLeavesItsSnapshotAborted() {
    DatasetId id = MiniCluster.uniqueDataset("failed");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      SnapshotId before = SparkTests.writeJava(ds, List.of(Map.of("id", 7L, "name", "n7", "score", 0)));
      Dataset<Row> failing = spark.range(0, 200, 1, 2).selectExpr("id", "concat('n', id) AS name",
          "CASE WHEN id = 150 THEN raise_error('task fails on purpose') ELSE CAST(id % 7 AS INT) END AS score");

      Exception e = assertThrows(Exception.class, () -> failing.write().format("snapds")
          .option("dataset", id.toString()).option("write.buffer.bytes", "1024").mode("overwrite").save());
      assertTrue(String.valueOf(e.getMessage()).contains("task fails on purpose")
          || String.valueOf(e.getCause()).contains("task fails on purpose"), String.valueOf(e));

      assertEquals(before, ds.currentSnapshot().orElseThrow().id(), "the current snapshot stays");
      SnapshotInfo attempted = newest(ds);
      assertTrue(attempted.id().value() > before.value(), "the write began a snapshot: " + attempted);
      assertEquals(SnapshotState.ABORTED, attempted.state());
      assertEquals(List.of(7L), SparkTests.readJava(ds, before).stream().map(r -> r.getLong("id")).toList());
    }
  }

  @Test
  void aRetriedTaskPublishesOnceWithExactCounts() {
    DatasetId id = MiniCluster.uniqueDataset("retried");
    THROWN.set(0);
    spark.udf().register("flaky_id", (UDF1<Long, Long>) v -> {
      TaskContext task = TaskContext.get();
      // partition 0 holds ids 0..99: its first attempt sends rows (1 KiB batches), then fails
      if (v == 90 && task.partitionId() == 0 && task.attemptNumber() == 0) {
        THROWN.incrementAndGet();
        throw new IllegalStateException("first attempt fails on purpose");
      }
      return v;
    }, DataTypes.LongType);
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      input(200, "flaky_id(id) AS id").write().format("snapds").option("dataset", id.toString())
          .option("write.buffer.bytes", "1024").mode("overwrite").save();

      assertEquals(1, THROWN.get(), "one attempt failed and was retried");
      SnapshotInfo published = ds.currentSnapshot().orElseThrow();
      assertEquals(SnapshotState.COMMITTED, published.state());
      assertEquals(1, ds.snapshots().size(), "one snapshot: " + ds.snapshots());
      assertEquals(200, published.rowCount());
      assertRows(ds, published.id(), 200);
      assertEquals(200, spark.read().format("snapds").option("dataset", id.toString()).load().count());
    }
  }

  @Test
  void aRunIdPublishesOnce() {
    DatasetId id = MiniCluster.uniqueDataset("runid");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      input(50, "id").write().format("snapds").option("dataset", id.toString()).option("run.id", "nightly-1")
          .mode("overwrite").save();
      SnapshotInfo first = ds.currentSnapshot().orElseThrow();
      assertEquals(50, first.rowCount());

      // the same run again (a retried job), with other rows: nothing is published
      input(10, "id").write().format("snapds").option("dataset", id.toString()).option("run.id", "nightly-1")
          .mode("overwrite").save();

      assertEquals(first.id(), ds.currentSnapshot().orElseThrow().id());
      assertEquals(first.id(), ds.snapshotForRun("nightly-1").orElseThrow().id());
      assertEquals(1, ds.snapshots().stream().filter(s -> s.state() == SnapshotState.COMMITTED).count());
      assertRows(ds, first.id(), 50);
    }
  }

  @Test
  void anAppendIsRefusedAndChangesNothing() {
    DatasetId id = MiniCluster.uniqueDataset("append");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      SnapshotId before = SparkTests.writeJava(ds, List.of(Map.of("id", 7L, "name", "n7", "score", 0)));
      Exception e = assertThrows(Exception.class, () -> input(5, "id").write().format("snapds")
          .option("dataset", id.toString()).mode("append").save());
      assertTrue(String.valueOf(e.getMessage()).contains("cannot append"), String.valueOf(e));
      Exception sql = assertThrows(Exception.class, () -> spark.sql("INSERT INTO snapds." + id.namespace() + "."
          + id.name() + " SELECT 1L, 'n1', 1"));
      assertTrue(String.valueOf(sql.getMessage()).contains("cannot append"), String.valueOf(sql));
      assertEquals(before, ds.currentSnapshot().orElseThrow().id());
      assertEquals(1, ds.snapshots().size(), "nothing begun: " + ds.snapshots());
    }
  }

  /**
   * Spark does not check that a string's bytes are UTF-8 ({@code CAST(binary AS STRING)} keeps
   * them as they are): such a value is refused naming its field, as the Java API refuses a lone
   * surrogate, and nothing is published. (Before the encoder took Spark's bytes, the value went
   * through a Java string and was stored as U+FFFD.)
   */
  @Test
  void aStringThatIsNotUtf8IsRefusedNamingItsFieldAndNothingIsPublished() {
    DatasetId id = MiniCluster.uniqueDataset("badutf8");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      SnapshotId before = SparkTests.writeJava(ds, List.of(Map.of("id", 7L, "name", "n7", "score", 0)));
      Dataset<Row> bad = spark.range(0, 10, 1, 2).selectExpr("id",
          "CASE WHEN id = 5 THEN CAST(X'80' AS STRING) ELSE concat('n', id) END AS name", "CAST(0 AS INT) AS score");

      Exception e = assertThrows(Exception.class, () -> bad.write().format("snapds").option("dataset", id.toString())
          .mode("overwrite").save());
      Throwable cause = e;
      while (cause.getCause() != null && !(cause instanceof io.snapds.dataset.schema.InvalidValueException)) {
        cause = cause.getCause();
      }
      assertTrue(cause instanceof io.snapds.dataset.schema.InvalidValueException, String.valueOf(e));
      assertTrue(cause.getMessage().contains("'name'") && cause.getMessage().contains("not UTF-8"),
          cause.getMessage());
      assertEquals(before, ds.currentSnapshot().orElseThrow().id(), "the current snapshot stays");
      assertEquals(SnapshotState.ABORTED, newest(ds).state());
    }
  }

  @Test
  void aPartialOverwriteIsRefused() {
    DatasetId id = MiniCluster.uniqueDataset("partial");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      Exception e = assertThrows(Exception.class, () -> input(5, "id").writeTo("snapds." + id.namespace() + "."
          + id.name()).overwrite(org.apache.spark.sql.functions.col("id").gt(2)));
      assertTrue(String.valueOf(e.getMessage()).contains("replaces the whole dataset"), String.valueOf(e));
      assertTrue(ds.snapshots().isEmpty(), "nothing begun: " + ds.snapshots());
    }
  }

  /**
   * Issue 39 on Spark: write, audit, publish. With option {@code stage} the write records its
   * snapshot STAGED on the current one: readable by version, never current, until it is published.
   */
  @Test
  void aStagedWriteIsReadableByVersionAndBecomesCurrentOnlyWhenPublished() {
    DatasetId id = MiniCluster.uniqueDataset("staged");
    try (SnapshotDataset ds = SparkTests.create(cluster, id, SCHEMA)) {
      SnapshotId before = SparkTests.writeJava(ds, List.of(Map.of("id", 7L, "name", "n7", "score", 0)));
      input(40, "id").write().format("snapds").option("dataset", id.toString()).option("stage", "true")
          .mode("overwrite").save();

      assertEquals(before, ds.currentSnapshot().orElseThrow().id(), "a stage is not current");
      List<SnapshotInfo> staged = ds.stagedSnapshots();
      assertEquals(1, staged.size(), staged.toString());
      SnapshotInfo stage = staged.get(0);
      assertEquals(SnapshotState.STAGED, stage.state());
      assertEquals(java.util.Optional.of(before), stage.parentId(), "staged on the current snapshot");
      assertEquals(40, stage.rowCount());
      assertRows(ds, stage.id(), 40);
      assertEquals(40, spark.read().format("snapds").option("dataset", id.toString())
          .option("version", stage.id().toString()).load().count(), "Spark reads the stage by version");
      assertEquals(1, spark.read().format("snapds").option("dataset", id.toString()).load().count(),
          "and the current snapshot otherwise");

      ds.publish(stage.id());
      assertEquals(stage.id(), ds.currentSnapshot().orElseThrow().id());
      assertEquals(40, spark.read().format("snapds").option("dataset", id.toString()).load().count());
    }
  }
}
