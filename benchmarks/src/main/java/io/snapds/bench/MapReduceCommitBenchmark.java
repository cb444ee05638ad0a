package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.mapreduce.SnapshotOutputFormat;
import io.snapds.dataset.read.SnapshotRowCounter;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * What the MapReduce committer spends on the counts it publishes (issue 36 item 5: the published
 * counts are the rows the snapshot holds, counted at commit). One output of
 * {@code mapReduceCommitRows} rows written by {@value #TASKS} tasks through the real output
 * format; then, on that same output before the job commits, the counting scan the commit runs
 * ({@code SnapshotRowCounter.count}) several times, then the real {@code commitJob} once.
 */
final class MapReduceCommitBenchmark implements Benchmark {
  private static final int TASKS = 10;

  @Override
  public String title() {
    return "10. MapReduce commit: the counting scan of the output";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    long rows = ctx.scale().mapReduceRows() * 10; // 1M at full scale
    SnapshotDataset dataset = ctx.createDataset("mrcommit", DatasetProperties.defaults());
    try {
      Configuration conf = new Configuration(ctx.cluster().configuration());
      conf.set(JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
      Job job = Job.getInstance(conf, "commit-bench");
      SnapshotOutputFormat.setOutput(job, dataset.id());
      SnapshotOutputFormat<ImmutableBytesWritable> format = new SnapshotOutputFormat<>();
      format.checkOutputSpecs(job);
      Configuration jobConf = job.getConfiguration();
      JobID jobId = new JobID("commitbench", 1);
      OutputCommitter committer = format.getOutputCommitter(attempt(jobConf, jobId, 0));
      committer.setupJob(new JobContextImpl(jobConf, jobId));
      for (int t = 0; t < TASKS; t++) {
        TaskAttemptContext task = attempt(jobConf, jobId, t);
        RecordWriter<ImmutableBytesWritable, SnapshotRowWritable> w = format.getRecordWriter(task);
        for (long r = t; r < rows; r += TASKS) {
          w.write(null, new SnapshotRowWritable(row(r)));
        }
        w.close(task);
      }
      SnapshotId id = SnapshotOutputFormat.handle(jobConf).orElseThrow().snapshotId();
      SnapshotKeys keys = dataset.keys(id); // the building snapshot's key range, from its record
      ctx.flush(dataset);
      Compaction.settle(ctx.cluster().util(), dataset.id().dataTable());

      List<Double> scan = new ArrayList<>();
      SnapshotRowCounter.count(ctx.connection(), dataset.id(), keys); // unmeasured: warm
      for (int rep = 0; rep < Math.max(5, ctx.scale().mapReduceReps()); rep++) {
        long start = System.nanoTime();
        SnapshotRowCounter.Counts scanned = SnapshotRowCounter.count(ctx.connection(), dataset.id(), keys);
        scan.add((System.nanoTime() - start) / 1e6);
        if (scanned.rows() != rows) {
          throw new IllegalStateException("counted " + scanned + ", rows written " + rows);
        }
      }
      long start = System.nanoTime();
      committer.commitJob(new JobContextImpl(jobConf, jobId));
      double commitMs = (System.nanoTime() - start) / 1e6;
      SnapshotInfo published = dataset.currentSnapshot().orElseThrow();
      if (published.rowCount() != rows) {
        throw new IllegalStateException("published " + published.rowCount() + " rows, wrote " + rows);
      }
      Measured s = new Measured("ms", scan);
      return new Section(title())
          .text("One output of " + Format.rows(rows) + " rows (10 cells of 20 bytes each) written by " + TASKS
              + " tasks through `SnapshotOutputFormat`'s record writer, flushed and major-compacted; then on that "
              + "output the counting scan the commit runs (`SnapshotRowCounter.count`, keys and value lengths "
              + "only, one scan per region, up to 8 at once), checked against the rows written each time. Then the real "
              + "`commitJob` once: count, publish: " + Format.number(commitMs) + " ms. No target: the cost is "
              + "proportional to the snapshot just written, never to the history.")
          .table(new MarkdownTable("counting step", "ms")
              .row("counting scan", s.describe(Format::number)));
    } finally {
      ctx.drop(dataset);
    }
  }

  private static TaskAttemptContext attempt(Configuration conf, JobID job, int task) {
    return new TaskAttemptContextImpl(conf, new TaskAttemptID(new TaskID(job, TaskType.REDUCE, task), 0));
  }

  private static SnapshotRow row(long r) {
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (int c = 0; c < RowData.COLUMNS; c++) {
      cells.put(RowData.qualifier(c), RowData.value(1, r, c));
    }
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(RowData.FAMILY_BYTES, cells);
    return new SnapshotRow(RowData.key(r), families);
  }
}
