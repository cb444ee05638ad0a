package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.mapreduce.SnapshotInputFormat;
import io.snapds.dataset.mapreduce.SnapshotMapReduceUtil;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableMapper;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;

/**
 * Item 6: a map-only job counting rows, over a snapshot with {@code SnapshotInputFormat} against
 * HBase's {@code TableInputFormat} over a plain table with the same rows. Local job runner, in
 * this JVM; the wall time includes job setup, the same for both.
 */
final class MapReduceBenchmark implements Benchmark {
  private static final int CACHING = 500;
  static final String GROUP = "bench";
  static final String ROWS = "rows";

  @Override
  public String title() {
    return "6. MapReduce: map-only row count";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    long rows = ctx.scale().mapReduceRows();
    SnapshotDataset dataset = ctx.createDataset("mr", DatasetProperties.defaults());
    TableName plain = ctx.tables().create(ctx.name("mr_raw"));
    try {
      try (SnapshotWriter w = dataset.newSnapshot().begin()) {
        RowData.write(w, 1, rows);
        w.commit();
      }
      try (BufferedMutator m = ctx.connection().getBufferedMutator(plain)) {
        RowData.write(m, 1, rows);
      }
      Compaction.settle(ctx.cluster().util(), dataset.id().dataTable());
      Compaction.settle(ctx.cluster().util(), plain);
      List<Double> ours = new ArrayList<>();
      List<Double> raw = new ArrayList<>();
      // one unmeasured job each first: class loading and JIT of the job machinery
      countOurs(ctx, dataset, rows);
      countRaw(ctx, plain, rows);
      for (int rep = 0; rep < ctx.scale().mapReduceReps(); rep++) {
        ours.add(countOurs(ctx, dataset, rows));
        raw.add(countRaw(ctx, plain, rows));
      }
      Measured o = new Measured("rows/s", ours);
      Measured r = new Measured("rows/s", raw);
      Ratio ratio = Ratio.of("MapReduce count", o, r, Double.NaN);
      Section section = new Section(title()).ratio(ratio);
      section.text("A snapshot of " + Format.rows(rows) + " rows and a plain table with the same rows, both flushed "
          + "and major-compacted (one region each, so one map task each). A map-only job whose mapper counts rows in "
          + "a counter, `NullOutputFormat`, local job runner: `SnapshotMapReduceUtil.initSnapshotMapperJob(..., "
          + "SnapshotSelector.current(), ...)` against `TableMapReduceUtil.initTableMapperJob(table, scan, ...)`, "
          + "scan caching " + CACHING + " for both. Rate = rows / wall time of `runJob` (submission, split "
          + "computation and for ours the reader pin included); one unmeasured job of each first. No target was set.");
      section.table(new MarkdownTable("job", "rows/s", "ratio")
          .row("SnapshotInputFormat (ours)", o.describe(), Format.ratio(ratio.value()))
          .row("TableInputFormat", r.describe(), "1.00x"));
      return section;
    } finally {
      ctx.drop(dataset);
      ctx.tables().drop(plain);
    }
  }

  private static Job newJob(BenchContext ctx, String name) throws Exception {
    Configuration conf = new Configuration(ctx.cluster().configuration());
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.client.completion.pollinterval", 50);
    conf.set(JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
    Job job = Job.getInstance(conf, name);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setNumReduceTasks(0);
    return job;
  }

  private static double countOurs(BenchContext ctx, SnapshotDataset dataset, long rows) throws Exception {
    Job job = newJob(ctx, "count-snapshot");
    SnapshotMapReduceUtil.initSnapshotMapperJob(dataset.id(), SnapshotSelector.current(), SnapshotCountMapper.class,
        null, null, job, false);
    SnapshotInputFormat.setScanCaching(job, CACHING);
    return timed(job, rows, () -> SnapshotMapReduceUtil.runJob(job, false));
  }

  private static double countRaw(BenchContext ctx, TableName table, long rows) throws Exception {
    Job job = newJob(ctx, "count-table");
    TableMapReduceUtil.initTableMapperJob(table.getNameAsString(), new Scan().setCaching(CACHING).setCacheBlocks(false),
        TableCountMapper.class, null, null, job, false);
    return timed(job, rows, () -> job.waitForCompletion(false));
  }

  private interface JobRun {
    boolean run() throws Exception;
  }

  private static double timed(Job job, long rows, JobRun run) throws Exception {
    long start = System.nanoTime();
    if (!run.run()) {
      throw new IllegalStateException("job " + job.getJobName() + " failed");
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long counted = job.getCounters().findCounter(GROUP, ROWS).getValue();
    if (counted != rows) {
      throw new IllegalStateException("job " + job.getJobName() + " counted " + counted + " rows, expected " + rows);
    }
    return rows / seconds;
  }

  /** Counts the snapshot's rows. */
  public static final class SnapshotCountMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, Object, Object> {
    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRowWritable value, Context context) {
      context.getCounter(GROUP, ROWS).increment(1);
    }
  }

  /** Counts the table's rows. */
  public static final class TableCountMapper extends TableMapper<Object, Object> {
    @Override
    protected void map(ImmutableBytesWritable key, Result value, Context context) {
      context.getCounter(GROUP, ROWS).increment(1);
    }
  }
}
