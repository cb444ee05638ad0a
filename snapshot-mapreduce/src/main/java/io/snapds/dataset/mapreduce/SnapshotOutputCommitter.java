package io.snapds.dataset.mapreduce;

import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the snapshot a {@link SnapshotOutputFormat} job began, or aborts it. Runs in the
 * application master: {@link #setupJob} resumes the snapshot from the handle in the job
 * configuration, which keeps the writer lock's lease alive while the tasks run (the submitting
 * process renews it too, from the submission until the job ends); {@link #commitJob}
 * sums the row and byte counts its tasks committed and publishes atomically; {@link #abortJob}
 * marks the snapshot aborted (its rows are left to cleanup), leaving the current snapshot as it
 * was. A task's rows are invisible until the job commits; what a task commits is its counts
 * ({@link TaskCommitRecords}, one row per task in the lock table), so the job publishes exact
 * counts without scanning its output, and an attempt that failed or lost a speculative race is
 * not counted.
 *
 * <p>The resumed writer lives in this instance from setup to commit, as the application master
 * (and the local job runner) use one committer for the whole job; an instance that did not run
 * setup (a restarted application master) resumes the snapshot again from the handle.
 */
public final class SnapshotOutputCommitter extends OutputCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotOutputCommitter.class);

  private JobDatasets datasets;
  private SnapshotWriter writer;

  @Override
  public void setupJob(JobContext context) throws IOException {
    if (handle(context).isPresent()) {
      writer(context);
    }
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    Optional<SnapshotHandle> handle = handle(context);
    if (handle.isEmpty()) {
      return; // the run was published before: nothing was written
    }
    SnapshotWriter w = writer(context);
    DatasetId dataset = SnapshotOutputFormat.dataset(context.getConfiguration());
    TaskCommitRecords records = new TaskCommitRecords(datasets.connection(), dataset, handle.get().snapshotId());
    TaskCommitRecords.Counts counts = records.sum();
    // when this fails, the writer stays here for abortJob: it knows whether aborting is safe
    // (never after a commit whose outcome is unknown)
    SnapshotInfo published = w.addCounts(counts.rows(), counts.bytes())
        .summary("mapreduce.job.id", String.valueOf(context.getJobID())).commit();
    LOG.info("job {} published snapshot {} of {} with {} rows from {} tasks", context.getJobID(), published.id(),
        dataset, published.rowCount(), counts.tasks());
    forgetTaskCounts(context, handle.get());
    HeldLeases.release(handle.get().snapshotId()); // the submission's renewal, when it ran in this process
    release();
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    Optional<SnapshotHandle> handle = handle(context);
    if (handle.isEmpty()) {
      return;
    }
    try {
      writer(context).abort();
      LOG.info("job {} ended {}: aborted snapshot {}", context.getJobID(), state, handle.get().snapshotId());
      forgetTaskCounts(context, handle.get());
    } catch (SnapshotNotAvailableException e) {
      LOG.info("job {} ended {}: snapshot {} was not building any more ({})", context.getJobID(), state,
          handle.get().snapshotId(), e.getMessage());
    } finally {
      HeldLeases.release(handle.get().snapshotId()); // the submission's renewal, when it ran in this process
      release();
    }
  }

  private void forgetTaskCounts(JobContext context, SnapshotHandle handle) {
    try {
      new TaskCommitRecords(datasets.connection(), SnapshotOutputFormat.dataset(context.getConfiguration()),
          handle.snapshotId()).clear();
    } catch (RuntimeException e) {
      LOG.warn("job {}: the task counts of snapshot {} stay in the lock table: {}", context.getJobID(),
          handle.snapshotId(), e.toString());
    }
  }

  private SnapshotWriter writer(JobContext context) throws IOException {
    if (writer == null) {
      Configuration conf = context.getConfiguration();
      datasets = JobDatasets.open(conf);
      try {
        SnapshotDataset dataset = datasets.open(SnapshotOutputFormat.dataset(conf));
        writer = dataset.resume(handle(context).orElseThrow());
      } catch (RuntimeException e) {
        release();
        throw e;
      }
    }
    return writer;
  }

  private void release() throws IOException {
    writer = null;
    if (datasets != null) {
      datasets.close();
      datasets = null;
    }
  }

  private static Optional<SnapshotHandle> handle(JobContext context) {
    return SnapshotOutputFormat.handle(context.getConfiguration());
  }

  @Override
  public void setupTask(TaskAttemptContext context) {}

  /** Every task of a job that writes commits: its counts, not its rows (they are in place already). */
  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) {
    return handle(context).isPresent();
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    withRecords(context, records -> records.commit(context.getTaskAttemptID()));
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    withRecords(context, records -> records.discard(context.getTaskAttemptID()));
  }

  /** Task side: a connection of its own (the task's record writer has closed its one). */
  private static void withRecords(TaskAttemptContext context,
      java.util.function.Consumer<TaskCommitRecords> action) throws IOException {
    Optional<SnapshotHandle> handle = handle(context);
    if (handle.isEmpty()) {
      return;
    }
    Configuration conf = context.getConfiguration();
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      action.accept(new TaskCommitRecords(connection, SnapshotOutputFormat.dataset(conf), handle.get().snapshotId()));
    }
  }
}
