package io.snapds.spark.bundle;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The README's Spark example, run in a child JVM set up as docs/spark.md tells a user: the HBase
 * and Tephra ZooKeeper through {@code spark.hadoop.*}, the catalog by its class name. Prints what
 * it read, one {@code result:} line each, for the parent to check. {@link SparkBundleIT} runs it
 * with the connector's {@code -bundle} jar and Spark's jars on the class path and the ZooKeeper's
 * host and port as arguments, which it sets itself; {@link SparkPackagesIT} through Spark's
 * {@code SparkSubmit} without arguments, the settings given as {@code --conf}.
 * <pre>
 * ReadmeExampleMain [ZK_HOST ZK_PORT]
 * </pre>
 */
public final class ReadmeExampleMain {
  private ReadmeExampleMain() {}

  public static void main(String[] args) {
    SparkSession.Builder builder = SparkSession.builder().appName("readme-example");
    if (args.length == 2) {
      String host = args[0];
      String port = args[1];
      builder.master("local[2]")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.hadoop.hbase.zookeeper.quorum", host)
          .config("spark.hadoop.hbase.zookeeper.property.clientPort", port)
          // Tephra's transaction service, found through ZooKeeper (the default client factory)
          .config("spark.hadoop.data.tx.zookeeper.quorum", host + ":" + port)
          .config("spark.sql.catalog.snapds", "io.snapds.spark.SnapshotCatalog");
    } else if (args.length != 0) {
      throw new IllegalArgumentException("usage: ReadmeExampleMain [ZK_HOST ZK_PORT], got " + List.of(args));
    }
    SparkSession spark = builder.getOrCreate();
    try {
      // the README's lines, as they are
      Dataset<Row> prices = spark.read().format("snapds").option("dataset", "shop:prices").load();
      List<Row> a17 = prices.where("sku = 'A-17'").collectAsList();
      long atRelease = spark.sql("SELECT count(*) FROM snapds.shop.prices VERSION AS OF 'release'").first().getLong(0);
      prices.where("price > 0").write().format("snapds").option("dataset", "shop:prices_copy")
          .option("run.id", "nightly-42").mode("overwrite").save();

      System.out.println("result: A-17 " + a17);
      System.out.println("result: release count " + atRelease);
      System.out.println("result: snapds classes from " + io.snapds.spark.SnapshotCatalog.class
          .getProtectionDomain().getCodeSource().getLocation());
      System.out.println("result: hbase client from " + org.apache.hadoop.hbase.client.Connection.class
          .getProtectionDomain().getCodeSource().getLocation());
    } finally {
      spark.stop();
    }
  }
}
