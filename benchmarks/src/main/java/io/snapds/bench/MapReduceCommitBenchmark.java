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
import io.snapds.dataset.mapreduce.TaskCommitRecords;
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
 * Issue #12 item 5: what the MapReduce committer spends on the counts it publishes. One output of
 * {@code mapReduceCommitRows} rows written by {@value #TASKS} tasks through the real output format
 * and committed task by task; then, on that same output before the job commits, alternately the
 * counting scan the committer used to run ({@code SnapshotRowCounter.count}) and the sum of the
 * task records it runs now, then the real {@code commitJob} once.
 */
final class MapReduceCommitBenchmark implements Benchmark {
  private static final int TASKS = 10;

  @Override
  public String title() {
    return "10. MapReduce commit: counts from task records against the counting scan";
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
        committer.commitTask(task);
      }
      SnapshotId id = SnapshotOutputFormat.handle(jobConf).orElseThrow().snapshotId();
      SnapshotKeys keys = dataset.keys(id); // the building snapshot's key range, from its record
      ctx.flush(dataset);
      Compaction.settle(ctx.cluster().util(), dataset.id().dataTable());

      TaskCommitRecords records = new TaskCommitRecords(ctx.connection(), dataset.id(), id);
      List<Double> scan = new ArrayList<>();
      List<Double> sum = new ArrayList<>();
      SnapshotRowCounter.count(ctx.connection(), dataset.id(), keys); // unmeasured: warm both
      records.sum();
      for (int rep = 0; rep < Math.max(5, ctx.scale().mapReduceReps()); rep++) {
        long start = System.nanoTime();
        SnapshotRowCounter.Counts scanned = SnapshotRowCounter.count(ctx.connection(), dataset.id(), keys);
        scan.add((System.nanoTime() - start) / 1e6);
        start = System.nanoTime();
        TaskCommitRecords.Counts summed = records.sum();
        sum.add((System.nanoTime() - start) / 1e6);
        if (scanned.rows() != rows || summed.rows() != rows || scanned.bytes() != summed.bytes()) {
          throw new IllegalStateException("counts differ: scan " + scanned + ", task records " + summed
              + ", rows written " + rows);
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
      Measured n = new Measured("ms", sum);
      // the ratio of times, baseline over ours: how many times faster the new counting step is
      Ratio ratio = new Ratio("MapReduce commit counting, scan / task records", s.median() / n.median(), Double.NaN);
      return new Section(title()).ratio(ratio)
          .text("One output of " + Format.rows(rows) + " rows (10 cells of 20 bytes each) written by " + TASKS
              + " tasks through `SnapshotOutputFormat`'s record writer and committed task by task "
              + "(`commitTask`), flushed and major-compacted; then, alternately on that output, the counting "
              + "scan the committer ran before issue #12 (`SnapshotRowCounter.count`, keys and value lengths "
              + "only) and the sum of the task records it runs now (`TaskCommitRecords.sum`, " + TASKS
              + " rows of the lock table); both counts checked equal each time. Then the real `commitJob` "
              + "once: sum, publish, delete the task records: " + Format.number(commitMs) + " ms. No target.")
          .table(new MarkdownTable("counting step", "ms", "ratio")
              .row("task records (ours)", n.describe(Format::number), Format.ratio(ratio.value()) + " faster")
              .row("counting scan (before)", s.describe(Format::number), "1.00x"));
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
