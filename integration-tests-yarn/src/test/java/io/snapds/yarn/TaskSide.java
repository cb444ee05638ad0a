package io.snapds.yarn;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.mapreduce.SnapshotOutputFormat;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.NavigableMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * What runs in the task JVMs: the mappers of the YARN tests, and the functions both sides use to
 * compare what a task read with what the Java API reads. Nothing here touches the test's
 * fixtures: a task knows only its job configuration.
 */
public final class TaskSide {
  /** Setting: a directory on the cluster's file system the tasks and the test signal through. */
  public static final String LATCH_DIR = "snapds.test.latch.dir";
  /** Counter group: rows each map task read, by the first user key it read. */
  public static final String ROWS_BY_FIRST_KEY = "rows by the first key of the task";
  /** Counter group of totals. */
  public static final String TOTALS = "totals";

  private TaskSide() {}

  /** A hash of a row's key and every cell, the same in every JVM. */
  public static long rowHash(byte[] key, NavigableMap<byte[], NavigableMap<byte[], byte[]>> families) {
    long h = Bytes.hashCode(key);
    for (Map.Entry<byte[], NavigableMap<byte[], byte[]>> family : families.entrySet()) {
      h = 31 * h + Bytes.hashCode(family.getKey());
      for (Map.Entry<byte[], byte[]> cell : family.getValue().entrySet()) {
        h = 31 * h + Bytes.hashCode(cell.getKey());
        h = 31 * h + Bytes.hashCode(cell.getValue());
      }
    }
    return h;
  }

  public static long rowHash(SnapshotRow row) {
    return rowHash(row.key(), row.families());
  }

  /** One record as text: each field's name and value in the schema's order, byte arrays as hex. */
  public static String recordText(Map<String, Object> values) {
    StringJoiner out = new StringJoiner(", ", "{", "}");
    values.forEach((name, v) -> out.add(name + "=" + (v instanceof byte[] b ? Bytes.toHex(b) : String.valueOf(v))));
    return out.toString();
  }

  /** Rows physically in {@code dataset}'s data table under {@code snapshot}'s prefix. */
  public static long rawRows(Connection connection, DatasetId dataset, SnapshotKeys snapshot) throws IOException {
    try (Table table = connection.getTable(dataset.dataTable());
        ResultScanner rows = table.getScanner(new Scan().withStartRow(snapshot.start())
            .withStopRow(snapshot.stop()).setFilter(new FirstKeyOnlyFilter()))) {
      long n = 0;
      for (Result ignored : rows) {
        n++;
      }
      return n;
    }
  }

  static void awaitFile(FileSystem fs, Path file) throws IOException {
    long deadline = System.nanoTime() + 180_000_000_000L;
    while (!fs.exists(file)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(file + " did not appear within 3 minutes");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("waiting for " + file);
      }
    }
  }

  static void writeFile(FileSystem fs, Path file, String text) throws IOException {
    try (var out = fs.create(file, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Counts rows (per task and in total) and sums their hashes in counters. At its first row it
   * says so (a file {@code started-<attempt>} in the latch directory) and waits for the test's
   * {@code go}.
   */
  public static final class CountingMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, NullWritable, NullWritable> {
    private String firstKey;

    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRowWritable value, Context context)
        throws IOException {
      if (firstKey == null) {
        firstKey = Bytes.toString(key.copyBytes());
        Path latch = new Path(context.getConfiguration().get(LATCH_DIR));
        FileSystem fs = latch.getFileSystem(context.getConfiguration());
        writeFile(fs, new Path(latch, "started-" + context.getTaskAttemptID()), firstKey);
        awaitFile(fs, new Path(latch, "go"));
      }
      SnapshotRow row = value.get();
      context.getCounter(ROWS_BY_FIRST_KEY, firstKey).increment(1);
      context.getCounter(TOTALS, "rows").increment(1);
      context.getCounter(TOTALS, "hash").increment(rowHash(key.copyBytes(), row.families()));
    }
  }

  /**
   * Copies every row. The first attempt of the task that reads {@code k000} stops its own JVM
   * ({@code Runtime.halt}) after 60 rows, once it has seen rows of its output in HBase; it writes
   * how many to {@code halted} in the latch directory first.
   */
  public static final class HaltingCopyMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, ImmutableBytesWritable, SnapshotRowWritable> {
    private int rows;
    private boolean halting;

    @Override
    protected void setup(Context context) {
      halting = context.getTaskAttemptID().getId() == 0;
    }

    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRowWritable value, Context context)
        throws IOException, InterruptedException {
      if (rows == 0) {
        halting &= Bytes.toString(key.copyBytes()).equals("k000");
      }
      context.write(key, value);
      if (++rows == 60 && halting) {
        Configuration conf = context.getConfiguration();
        long inHBase = outputRowsInHBase(conf);
        if (inHBase > 0) {
          Path latch = new Path(conf.get(LATCH_DIR));
          writeFile(latch.getFileSystem(conf), new Path(latch, "halted"), Long.toString(inHBase));
          Runtime.getRuntime().halt(137);
        }
      }
    }
  }

  /** Copies every row, and fails (every attempt) after 40 rows, once rows of its output are in HBase. */
  public static final class FailingCopyMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, ImmutableBytesWritable, SnapshotRowWritable> {
    private int rows;

    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRowWritable value, Context context)
        throws IOException, InterruptedException {
      context.write(key, value);
      if (++rows == 40) {
        Configuration conf = context.getConfiguration();
        long inHBase = outputRowsInHBase(conf);
        Path latch = new Path(conf.get(LATCH_DIR));
        writeFile(latch.getFileSystem(conf), new Path(latch, "failed-" + context.getTaskAttemptID()),
            Long.toString(inHBase));
        throw new IOException("this mapper fails on purpose after 40 rows (" + inHBase + " in HBase)");
      }
    }
  }

  /** Setting: the first user key of the task that {@link HoldingCopyMapper} holds. */
  public static final String HOLD_KEY = "snapds.test.hold.key";

  /**
   * Copies every row. The task whose first key is {@link #HOLD_KEY} first says it started (a file
   * {@code held-<attempt>} in the latch directory) and waits for the test's {@code go}, unless
   * {@code go} is there already.
   */
  public static final class HoldingCopyMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, ImmutableBytesWritable, SnapshotRowWritable> {
    private long rows;

    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRowWritable value, Context context)
        throws IOException, InterruptedException {
      if (rows++ == 0 && Bytes.toString(key.copyBytes()).equals(context.getConfiguration().get(HOLD_KEY))) {
        Path latch = new Path(context.getConfiguration().get(LATCH_DIR));
        FileSystem fs = latch.getFileSystem(context.getConfiguration());
        if (!fs.exists(new Path(latch, "go"))) {
          writeFile(fs, new Path(latch, "held-" + context.getTaskAttemptID()), "");
          awaitFile(fs, new Path(latch, "go"));
        }
      }
      context.write(key, value);
    }
  }

  /** Rows in HBase under the prefix of the snapshot the job writes, read with the job's settings. */
  static long outputRowsInHBase(Configuration conf) throws IOException {
    DatasetId dataset = SnapshotOutputFormat.dataset(conf);
    SnapshotId building = SnapshotOutputFormat.handle(conf).orElseThrow().snapshotId();
    try (JobDatasets datasets = JobDatasets.open(conf)) {
      SnapshotKeys keys = datasets.open(dataset).keys(building);
      return rawRows(datasets.connection(), dataset, keys);
    }
  }

  /** Each typed record as a line: its id, its values as {@link #recordText}, and its schema. */
  public static final class TypedRecordMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRecordWritable, Text, Text> {
    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRecordWritable value, Context context)
        throws IOException, InterruptedException {
      SchemaRecord record = value.record();
      if (!Bytes.equals(key.copyBytes(), value.row().key())) {
        throw new IllegalStateException("the raw row's key differs from the map key");
      }
      Map<String, Object> values = new TreeMap<>(record.toMap());
      context.write(new Text(Bytes.toStringBinary(key.copyBytes())),
          new Text(recordText(values) + " " + value.schema().orElseThrow().toStringWithIds()));
    }
  }
}
