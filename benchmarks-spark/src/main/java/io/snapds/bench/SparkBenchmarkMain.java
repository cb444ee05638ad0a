package io.snapds.bench;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.spark.SnapshotCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableOutputFormat;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.Job;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * Item 15 of docs/benchmarks.md (issue 38): the Spark connector against Spark reading and writing
 * the same rows through HBase's {@code TableInputFormat} and {@code TableOutputFormat}, on one mini
 * cluster + Tephra and Spark {@code local[2]} in this JVM. Ours and the baseline alternate (the
 * baseline first in each pair); each ratio is the median of the paired ratios, with the harness's
 * spread ({@link Spread#paired}). Writes the section to {@code target/bench-spark-results.md}.
 * <pre>
 * SparkBenchmarkMain --scale full|smoke
 * </pre>
 * Start it with {@code benchmarks-spark/run}.
 */
public final class SparkBenchmarkMain {
  static final String TITLE = "15. Spark: the connector against TableInputFormat / TableOutputFormat";
  static final double READ_TARGET = 0.95;
  static final double WRITE_TARGET = 0.90;
  /** RowScan's default caching, which the connector's splits scan with; the baselines get the same. */
  static final int CACHING = 500;
  static final String SCHEMA = "id long key, a long, b double, s string, c int";
  static final byte[] FAMILY = Bytes.toBytes("d");
  static final byte[] A = Bytes.toBytes("a");
  static final byte[] B = Bytes.toBytes("b");
  static final byte[] S = Bytes.toBytes("s");
  static final byte[] C = Bytes.toBytes("c");
  /** Ours materializes every value column: Spark's aggregates over the decoded columns. */
  static final String[] SUMS = {"sum(a)", "sum(b)", "sum(length(s))", "sum(c)"};

  private SparkBenchmarkMain() {}

  /** Sizes: rows read, rows written, repetitions. */
  record Sizes(String name, long readRows, long writeRows, int reps) {}

  public static void main(String[] args) throws Exception {
    String scaleName = args.length == 2 && args[0].equals("--scale") ? args[1] : null;
    Sizes sizes = "full".equals(scaleName) ? new Sizes("full", 500_000, 300_000, 5)
        : "smoke".equals(scaleName) ? new Sizes("smoke", 20_000, 20_000, 2) : null;
    if (sizes == null) {
      throw new IllegalArgumentException("usage: SparkBenchmarkMain --scale full|smoke; got " + List.of(args));
    }
    Instant started = Instant.now();
    String loadBefore = Machine.loadAverage();
    System.out.println("spark benchmark: scale " + sizes.name() + ", load average " + loadBefore
        + ", starting the mini cluster");
    MiniCluster cluster = MiniCluster.get();
    SparkSession spark = spark(cluster);
    Section section = run(cluster, spark, sizes);
    Duration took = Duration.between(started, Instant.now());
    String loadAfter = Machine.loadAverage();
    StringBuilder out = new StringBuilder();
    out.append("* command: `benchmarks-spark/run").append(sizes.name().equals("full") ? "" : " -Dbench.scale=smoke")
        .append("` (JVM ").append(heap()).append(")\n");
    out.append("* machine: ").append(Machine.describe()).append('\n');
    out.append("* started ").append(started.truncatedTo(ChronoUnit.SECONDS)).append(", took ")
        .append(took.toMinutes()).append(" min ").append(took.toSecondsPart())
        .append(" s; load average (1/5/15 min) ").append(loadBefore).append(" at the start, ").append(loadAfter)
        .append(" at the end\n\n");
    out.append(section.render());
    List<String> misses = section.misses();
    out.append(misses.isEmpty() ? "Every target was met in this run.\n"
        : "Targets missed in this run: " + String.join("; ", misses) + ".\n");
    Path results = Path.of("").toAbsolutePath().resolve("bench-spark-results.md");
    Files.writeString(results, out.toString(), StandardCharsets.UTF_8);
    System.out.println(out);
    System.out.println("spark benchmark done in " + took.truncatedTo(ChronoUnit.SECONDS) + "; results in " + results);
    System.out.flush();
    // the mini cluster's non-daemon threads would keep the JVM alive (as BenchmarkMain)
    Runtime.getRuntime().halt(0);
  }

  /** Publishes of this process so far whose counts were taken {@code by} "attempts" (summed) or "scan". */
  private static double publishesCounted(String by) {
    return io.snapds.dataset.SnapshotMetrics.registry().find("snapds.publish.counted").tag("by", by).counters()
        .stream().mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
  }

  private static String heap() {
    return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-Xmx")).reduce((first, second) -> second).orElse("default heap");
  }

  /** Spark local[2] on the mini cluster, configured through {@code spark.hadoop.*} as a cluster's site files would. */
  static SparkSession spark(MiniCluster cluster) {
    Configuration c = cluster.configuration();
    return SparkSession.builder().master("local[2]").appName("snapds-spark-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.catalog.snapds", SnapshotCatalog.class.getName())
        .config("spark.hadoop.hbase.zookeeper.quorum", c.get("hbase.zookeeper.quorum"))
        .config("spark.hadoop.hbase.zookeeper.property.clientPort", c.get("hbase.zookeeper.property.clientPort"))
        .config("spark.hadoop.zookeeper.znode.parent", c.get("zookeeper.znode.parent", "/hbase"))
        .config("spark.hadoop." + JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName())
        .getOrCreate();
  }

  /** The rows both sides write: {@code n} rows of 4 value columns, in 2 partitions. */
  static Dataset<Row> input(SparkSession spark, long n) {
    return spark.range(0, n, 1, 2).selectExpr("id", "id * 3 AS a", "CAST(id AS DOUBLE) / 7 AS b",
        "concat('name-', CAST(id AS STRING)) AS s", "CAST(id % 1000 AS INT) AS c");
  }

  static Section run(MiniCluster cluster, SparkSession spark, Sizes sizes) throws Exception {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    DatasetId id = DatasetId.of(PlainTables.NAMESPACE, "spark_read");
    PlainTables plain = new PlainTables(cluster.connection());
    SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
    ds.setSchema(Schema.parse(SCHEMA));
    long rows = sizes.readRows();
    System.out.println("loading " + rows + " rows through the connector");
    input(spark, rows).write().format("snapds").option("dataset", id.toString()).mode("overwrite").save();
    SnapshotInfo snapshot = ds.currentSnapshot().orElseThrow();
    TableName data = ds.id().dataTable();
    Compaction.settle(cluster.util(), data);
    SnapshotKeys keys = snapshot.keys();
    int regions = cluster.util().getHBaseCluster().getRegions(data).size();

    // the key range: the middle half of the ids, the same start and stop rows on both sides
    long lo = rows / 4;
    long hi = rows * 3 / 4;
    KeyCodec keyCodec = new KeyCodec(Schema.parse(SCHEMA));
    byte[] rangeStart = keys.rowKey(keyCodec.encode(List.of(lo)));
    byte[] rangeStop = keys.rowKey(keyCodec.encode(List.of(hi)));
    String where = "id >= " + lo + " AND id < " + hi;

    Configuration hconf = HBaseConfiguration.create(cluster.configuration());
    Configuration countConf = inputConf(hconf, data, new Scan().withStartRow(keys.start()).withStopRow(keys.stop())
        .setCaching(CACHING).setFilter(new FirstKeyOnlyFilter()));
    Configuration fullConf = inputConf(hconf, data, new Scan().withStartRow(keys.start()).withStopRow(keys.stop())
        .setCaching(CACHING).addFamily(FAMILY));
    Configuration rangeConf = inputConf(hconf, data, new Scan().withStartRow(rangeStart).withStopRow(rangeStop)
        .setCaching(CACHING).addFamily(FAMILY));

    Dataset<Row> ours = spark.read().format("snapds").option("dataset", id.toString()).load();
    int ourPartitions = ours.rdd().getNumPartitions();
    int rawPartitions = rdd(jsc, fullConf).getNumPartitions();

    // correctness of both sides, and warm-up: each read of each side once
    long[] ourSums = oursSums(ours);
    long[] rawSums = rawSums(jsc, fullConf);
    check("full scan", ourSums, rawSums, rows);
    check("count", new long[] {ours.count(), 0, 0, 0, rows}, new long[] {rdd(jsc, countConf).count(), 0, 0, 0, rows},
        rows);
    check("key range", oursSums(ours.where(where)), rawSums(jsc, rangeConf), hi - lo);

    List<Double> countOurs = new ArrayList<>();
    List<Double> countRaw = new ArrayList<>();
    List<Double> fullOurs = new ArrayList<>();
    List<Double> fullRaw = new ArrayList<>();
    List<Double> rangeOurs = new ArrayList<>();
    List<Double> rangeRaw = new ArrayList<>();
    for (int rep = 0; rep < sizes.reps(); rep++) {
      countRaw.add(rate(rows, () -> rdd(jsc, countConf).count()));
      countOurs.add(rate(rows, ours::count));
      fullRaw.add(rate(rows, () -> rawSums(jsc, fullConf)[4]));
      fullOurs.add(rate(rows, () -> oursSums(ours)[4]));
      rangeRaw.add(rate(hi - lo, () -> rawSums(jsc, rangeConf)[4]));
      rangeOurs.add(rate(hi - lo, () -> oursSums(ours.where(where))[4]));
      System.out.println("read repetition " + (rep + 1) + " of " + sizes.reps() + " done");
    }

    // writes: every repetition into a fresh dataset or table, dropped afterwards
    long writeRows = sizes.writeRows();
    List<Double> writeOurs = new ArrayList<>();
    List<Double> writeRaw = new ArrayList<>();
    double summedBefore = publishesCounted("attempts");
    double scannedBefore = publishesCounted("scan");
    for (int rep = -1; rep < sizes.reps(); rep++) { // -1: warm-up of both sides
      TableName table = plain.create("spark_write_" + (rep + 1));
      double raw = rate(writeRows, () -> writeRaw(spark, hconf, table, writeRows));
      checkRawRows(cluster, table, writeRows);
      plain.drop(table);
      DatasetId wid = DatasetId.of(PlainTables.NAMESPACE, "spark_write_" + (rep + 1));
      SnapshotDataset wds = cluster.datasets().create(wid, DatasetProperties.defaults());
      wds.setSchema(Schema.parse(SCHEMA));
      double our = rate(writeRows, () -> {
        input(spark, writeRows).write().format("snapds").option("dataset", wid.toString()).mode("overwrite").save();
        return writeRows;
      });
      long written = wds.currentSnapshot().orElseThrow().rowCount();
      if (written != writeRows) {
        throw new IllegalStateException("the connector's write published " + written + " rows, not " + writeRows);
      }
      cluster.datasets().admin(wid).drop();
      if (rep >= 0) {
        writeRaw.add(raw);
        writeOurs.add(our);
        System.out.println("write repetition " + (rep + 1) + " of " + sizes.reps() + " done");
      }
    }

    long summed = Math.round(publishesCounted("attempts") - summedBefore);
    long scanned = Math.round(publishesCounted("scan") - scannedBefore);
    Measured co = new Measured("rows/s", countOurs);
    Measured cr = new Measured("rows/s", countRaw);
    Measured fo = new Measured("rows/s", fullOurs);
    Measured fr = new Measured("rows/s", fullRaw);
    Measured ro = new Measured("rows/s", rangeOurs);
    Measured rr = new Measured("rows/s", rangeRaw);
    Measured wo = new Measured("rows/s", writeOurs);
    Measured wr = new Measured("rows/s", writeRaw);
    Ratio count = Ratio.paired("Spark count()", co, cr, READ_TARGET);
    Ratio full = Ratio.paired("Spark full scan, every column", fo, fr, READ_TARGET);
    Ratio range = Ratio.paired("Spark key-range query", ro, rr, READ_TARGET);
    Ratio write = Ratio.paired("Spark write (publish included)", wo, wr, WRITE_TARGET);

    Section section = new Section(TITLE);
    section.ratio(count).ratio(full).ratio(range).ratio(write);
    section.text("One dataset of " + Format.rows(rows) + " rows (schema `" + SCHEMA + "`: a key and 4 value cells a "
        + "row, about 50 bytes of values), written through the connector, flushed and major-compacted: " + regions
        + " region(s); the connector planned " + ourPartitions + " input partition(s), `TableInputFormat` "
        + rawPartitions + " split(s). Spark `local[2]` in the JVM of the mini cluster. Baselines read the snapshot's"
        + " key range of the same data table with `TableInputFormat` through `sparkContext.newAPIHadoopRDD`, caching "
        + CACHING + " as the connector's splits. Rates are rows per second of the whole Spark job (planning, "
        + "the snapshot's pin and its release included on ours); each ratio is the median of " + sizes.reps()
        + " paired ratios, each repetition of ours right after the baseline's.");
    section.text("* count: `spark.read.format(\"snapds\")...load().count()` (the connector fetches one cell a row) "
        + "against `newAPIHadoopRDD(...).count()` with a `FirstKeyOnlyFilter` scan.\n"
        + "* full scan: `" + String.join(", ", SUMS) + "` over the DataFrame (every value column decoded) against "
        + "a `mapPartitions` over the `Result`s decoding the same 4 cells with `Bytes.toLong`/`toDouble`/"
        + "`toString`/`toInt` and summing them; both sides' sums are checked equal before the runs.\n"
        + "* key-range query: the same sums `WHERE " + where + "` (pushed down as one key range, which holds it "
        + "exactly, so Spark does not evaluate it again) against `TableInputFormat` with the same start and stop rows ("
        + Format.rows(hi - lo) + " rows).\n"
        + "* write: `input.write.format(\"snapds\").mode(\"overwrite\").save()` of " + Format.rows(writeRows)
        + " rows (2 partitions of `spark.range`, the same 4 value columns; the job commit publishes the "
        + "snapshot with the sum of its tasks' records when they say what is stored, else with the counting scan: "
        + "in this run " + summed + " write(s) summed, " + scanned + " scanned, warm-up included) into a fresh dataset, against the same DataFrame's rows as one `Put` a "
        + "row (key `Bytes.toBytes(id)`) through `saveAsNewAPIHadoopDataset` with `TableOutputFormat` into a "
        + "fresh plain table; one warm-up of each first, not counted.");
    MarkdownTable table = new MarkdownTable("job", "ours", "baseline", "ratio", "spread", "target");
    row(table, "count (" + Format.rows(rows) + ")", co, cr, count);
    row(table, "full scan, every column (" + Format.rows(rows) + ")", fo, fr, full);
    row(table, "key-range query (" + Format.rows(hi - lo) + ")", ro, rr, range);
    row(table, "write (" + Format.rows(writeRows) + ")", wo, wr, write);
    section.table(table);
    MarkdownTable perRow = new MarkdownTable("job", "ours, µs a row", "baseline, µs a row", "difference, µs a row");
    perRowLine(perRow, "count", co, cr);
    perRowLine(perRow, "full scan, every column", fo, fr);
    perRowLine(perRow, "key-range query", ro, rr);
    perRowLine(perRow, "write", wo, wr);
    section.text("Per row (by the medians; both sides share the JVM's 2 cores with the region server, so these are "
        + "wall times, not CPU times). The count's figure against the full scan's is the cost of fetching and "
        + "decoding the 4 value cells:");
    section.table(perRow);
    return section;
  }

  private static void row(MarkdownTable table, String job, Measured ours, Measured raw, Ratio ratio) {
    table.row(job, ours.describe(), raw.describe(), Format.ratio(ratio.value()), Spread.paired(ours, raw, ratio),
        ratio.verdict());
  }

  private static void perRowLine(MarkdownTable table, String job, Measured ours, Measured raw) {
    double o = 1e6 / ours.median();
    double r = 1e6 / raw.median();
    table.row(job, String.format(Locale.ROOT, "%.2f", o), String.format(Locale.ROOT, "%.2f", r),
        String.format(Locale.ROOT, "%+.2f", o - r));
  }

  private interface Work {
    long run() throws Exception;
  }

  private static double rate(long rows, Work work) throws Exception {
    long start = System.nanoTime();
    long got = work.run();
    double seconds = (System.nanoTime() - start) / 1e9;
    if (got != rows) {
      throw new IllegalStateException("a run saw " + got + " rows, not " + rows);
    }
    return rows / seconds;
  }

  private static Configuration inputConf(Configuration base, TableName table, Scan scan) throws IOException {
    Configuration c = new Configuration(base);
    c.set(TableInputFormat.INPUT_TABLE, table.getNameAsString());
    c.set(TableInputFormat.SCAN, TableMapReduceUtil.convertScanToString(scan));
    return c;
  }

  private static JavaPairRDD<ImmutableBytesWritable, Result> rdd(JavaSparkContext jsc, Configuration conf) {
    return jsc.newAPIHadoopRDD(conf, TableInputFormat.class, ImmutableBytesWritable.class, Result.class);
  }

  /** {sum(a), sum(b) as long bits truncated, sum(length(s)), sum(c), rows} through the connector. */
  private static long[] oursSums(Dataset<Row> df) {
    Row r = df.selectExpr(SUMS[0], SUMS[1], SUMS[2], SUMS[3], "count(1)").first();
    return new long[] {r.getLong(0), (long) r.getDouble(1), r.getLong(2), r.getLong(3), r.getLong(4)};
  }

  /** The same sums over the raw {@code Result}s, decoding each cell as a plain HBase user would. */
  private static long[] rawSums(JavaSparkContext jsc, Configuration conf) {
    double[] out = rdd(jsc, conf).values().mapPartitions((Iterator<Result> results) -> {
      long a = 0;
      double b = 0;
      long s = 0;
      long c = 0;
      long n = 0;
      while (results.hasNext()) {
        Result r = results.next();
        a += Bytes.toLong(r.getValue(FAMILY, A));
        b += Bytes.toDouble(r.getValue(FAMILY, B));
        s += Bytes.toString(r.getValue(FAMILY, S)).length();
        c += Bytes.toInt(r.getValue(FAMILY, C));
        n++;
      }
      return List.of(new double[] {a, b, s, c, n}).iterator();
    }).reduce((x, y) -> new double[] {x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3], x[4] + y[4]});
    return new long[] {(long) out[0], (long) out[1], (long) out[2], (long) out[3], (long) out[4]};
  }

  private static void check(String what, long[] ours, long[] raw, long rows) {
    // the double sum differs in its last bits with the order of addition: compared to 1 part in 1e9
    boolean same = ours[0] == raw[0] && Math.abs(ours[1] - raw[1]) <= Math.max(1, Math.abs(raw[1]) / 1_000_000_000L)
        && ours[2] == raw[2] && ours[3] == raw[3] && ours[4] == rows && raw[4] == rows;
    if (!same) {
      throw new IllegalStateException(what + ": the connector read " + java.util.Arrays.toString(ours)
          + ", TableInputFormat " + java.util.Arrays.toString(raw) + ", expected " + rows + " rows");
    }
    System.out.println(what + ": both sides read " + rows + " rows with the same sums");
  }

  /** The baseline write: the same rows as one {@code Put} each, through {@code TableOutputFormat}. */
  private static long writeRaw(SparkSession spark, Configuration base, TableName table, long rows) throws IOException {
    Job job = Job.getInstance(new Configuration(base));
    job.getConfiguration().set(TableOutputFormat.OUTPUT_TABLE, table.getNameAsString());
    job.setOutputFormatClass(TableOutputFormat.class);
    job.setOutputKeyClass(ImmutableBytesWritable.class);
    job.setOutputValueClass(Put.class);
    input(spark, rows).javaRDD().mapToPair(r -> {
      Put p = new Put(Bytes.toBytes(r.getLong(0)));
      p.addColumn(FAMILY, A, Bytes.toBytes(r.getLong(1)));
      p.addColumn(FAMILY, B, Bytes.toBytes(r.getDouble(2)));
      p.addColumn(FAMILY, S, Bytes.toBytes(r.getString(3)));
      p.addColumn(FAMILY, C, Bytes.toBytes(r.getInt(4)));
      return new Tuple2<>(new ImmutableBytesWritable(), p);
    }).saveAsNewAPIHadoopDataset(job.getConfiguration());
    return rows;
  }

  private static void checkRawRows(MiniCluster cluster, TableName table, long rows) throws IOException {
    long n = 0;
    try (var t = cluster.connection().getTable(table);
        var scanner = t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(1000))) {
      for (Result r : scanner) {
        n++;
      }
    }
    if (n != rows) {
      throw new IllegalStateException("TableOutputFormat wrote " + n + " rows of " + rows + " into " + table);
    }
  }
}
