package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import io.snapds.dataset.tx.JobDatasets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * The test JVM's one Spark session ({@code local[2,3]}: two task threads, a task tried up to three
 * times), configured to reach the shared mini cluster and its transaction manager through
 * {@code spark.hadoop.*}, as a cluster's site files would; and helpers that write and read
 * through the core's Java API.
 */
final class SparkTests {
  private static SparkSession session;

  private SparkTests() {}

  static synchronized SparkSession spark(MiniCluster cluster) {
    if (session == null) {
      Configuration c = cluster.configuration();
      SparkSession.Builder b = SparkSession.builder().master("local[2,3]").appName("snapds-spark-test")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.sql.datetime.java8API.enabled", "true")
          .config("spark.sql.session.timeZone", "UTC")
          .config("spark.sql.catalog.snapds", SnapshotCatalog.class.getName())
          .config("spark.hadoop.hbase.zookeeper.quorum", c.get("hbase.zookeeper.quorum"))
          .config("spark.hadoop.hbase.zookeeper.property.clientPort", c.get("hbase.zookeeper.property.clientPort"))
          .config("spark.hadoop.zookeeper.znode.parent", c.get("zookeeper.znode.parent", "/hbase"))
          .config("spark.hadoop.hbase.client.pause", c.get("hbase.client.pause"))
          .config("spark.hadoop." + JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
      session = b.getOrCreate();
    }
    return session;
  }

  static SnapshotDataset create(MiniCluster cluster, DatasetId id, String schemaText) {
    return create(cluster, id, schemaText, DatasetProperties.defaults());
  }

  static SnapshotDataset create(MiniCluster cluster, DatasetId id, String schemaText, DatasetProperties properties) {
    SnapshotDataset ds = cluster.datasets().create(id, properties);
    ds.setSchema(Schema.parse(schemaText));
    return ds;
  }

  /** Publishes these records as a new snapshot through the Java API. */
  static SnapshotId writeJava(SnapshotDataset ds, List<Map<String, Object>> records) {
    RowCodec codec = new RowCodec(ds.schema().orElseThrow(), ds.properties().families().get(0));
    try (SnapshotWriter w = ds.newSnapshot().owner("java-test").begin()) {
      for (Map<String, Object> r : records) {
        w.put(codec.encode(r));
      }
      return w.commit().id();
    }
  }

  /** The scans of a query's executed plan (run it first). */
  static List<org.apache.spark.sql.execution.datasources.v2.BatchScanExec> scans(
      org.apache.spark.sql.Dataset<?> df) {
    List<org.apache.spark.sql.execution.datasources.v2.BatchScanExec> out = new ArrayList<>();
    org.apache.spark.sql.execution.SparkPlan plan = df.queryExecution().executedPlan();
    if (plan instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec a) {
      plan = a.executedPlan();
    }
    for (org.apache.spark.sql.execution.SparkPlan leaf : scala.jdk.javaapi.CollectionConverters.asJava(
        plan.collectLeaves())) {
      if (leaf instanceof org.apache.spark.sql.execution.datasources.v2.BatchScanExec b) {
        out.add(b);
      }
    }
    return out;
  }

  /** The columns that the Filter operators of a query's executed plan (run it first) test, sorted, once each. */
  static List<String> filteredColumns(org.apache.spark.sql.Dataset<?> df) {
    org.apache.spark.sql.execution.SparkPlan plan = df.queryExecution().executedPlan();
    if (plan instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec a) {
      plan = a.executedPlan();
    }
    java.util.TreeSet<String> out = new java.util.TreeSet<>();
    List<org.apache.spark.sql.execution.SparkPlan> todo = new ArrayList<>(List.of(plan));
    while (!todo.isEmpty()) {
      org.apache.spark.sql.execution.SparkPlan p = todo.remove(todo.size() - 1);
      if (p instanceof org.apache.spark.sql.execution.FilterExec f) {
        for (org.apache.spark.sql.catalyst.expressions.Attribute a : scala.jdk.javaapi.CollectionConverters.asJava(
            f.condition().references().toSeq())) {
          out.add(a.name());
        }
      }
      todo.addAll(scala.jdk.javaapi.CollectionConverters.asJava(p.children()));
    }
    return List.copyOf(out);
  }

  /** The rows the scan's tasks fetched from HBase (its custom metric). */
  static long rowsFetched(org.apache.spark.sql.execution.datasources.v2.BatchScanExec scan) {
    return scan.metrics().apply(SnapshotScan.ROWS_FETCHED).value();
  }

  /** Waits until the driver's listeners have seen every event posted so far (query ends release pins). */
  static void drainListeners(SparkSession spark) {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The records of {@code snapshot}, in key order, through the Java API. */
  static List<SchemaRecord> readJava(SnapshotDataset ds, SnapshotId snapshot) {
    RowCodec codec = new RowCodec(ds.schema(snapshot).orElseThrow(), ds.properties().families().get(0));
    List<SchemaRecord> out = new ArrayList<>();
    try (RowScanner rows = ds.readSnapshot(snapshot).scan(RowScan.all())) {
      for (SnapshotRow row : rows) {
        out.add(codec.decode(row));
      }
    }
    return out;
  }
}
