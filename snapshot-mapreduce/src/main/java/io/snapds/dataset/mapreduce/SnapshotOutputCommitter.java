package io.snapds.dataset.mapreduce;

import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the snapshot a {@link SnapshotOutputFormat} job began (or stages it, when the job was
 * set to with {@link SnapshotOutputFormat#setStage}), or aborts it. Runs in the
 * application master: {@link #setupJob} resumes the snapshot from the handle in the job
 * configuration, which keeps the writer lock's lease alive while the tasks run (the submitting
 * process renews it too, from the submission until the job ends); {@link #commitJob}
 * publishes atomically (or stages: the same counts and checks, recorded STAGED, not current);
 * {@link #abortJob}
 * marks the snapshot aborted (its rows are left to cleanup), leaving the current snapshot as it
 * was. A task's rows are invisible until the job commits; tasks have nothing to commit. The
 * published counts are the rows and bytes the snapshot holds, as a reader gets them: the resumed
 * writer sums the task attempts' records when they say what is stored (every attempt that sent
 * wrote its keys once, ascending, and no two attempts' key ranges overlap), and otherwise counts
 * them with one key-only scan of the snapshot ({@link io.snapds.dataset.read.SnapshotRowCounter}):
 * two tasks may write the same key, and failed and speculative attempts write too.
 *
 * <p>The resumed writer lives in this instance from setup to commit, as the application master
 * (and the local job runner) use one committer for the whole job; an instance that did not run
 * setup (a restarted application master) resumes the snapshot again from the handle. Such an
 * instance (application master attempt 2 or later, {@code mapreduce.job.application.attempt.id})
 * does not abort the snapshot when abortJob comes before setupJob: that call is Hadoop clearing the
 * previous attempt's output before it runs the job again, not the job's end. A job killed in that
 * window leaves its snapshot BUILDING until its lease lapses and cleanup takes it for dead. The
 * commit is repeatable ({@link #isCommitJobRepeatable}): an application master that died in
 * {@link #commitJob} is followed by one that runs the job again, not one that ends it at start.
 */
public final class SnapshotOutputCommitter extends OutputCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotOutputCommitter.class);

  private JobDatasets datasets;
  private SnapshotWriter writer;
  /** Whether {@link #setupJob} was called on this instance (this application master attempt). */
  private boolean setupCalled;

  @Override
  public void setupJob(JobContext context) throws IOException {
    setupCalled = true;
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
    boolean stage = SnapshotOutputFormat.stage(context.getConfiguration());
    // when this fails, the writer stays here for abortJob: it knows whether aborting is safe
    // (never after a commit whose outcome is unknown). Resumed, it counts the stored rows.
    SnapshotWriter counted = w.countStoredRows().summary("mapreduce.job.id", String.valueOf(context.getJobID()));
    SnapshotInfo done = stage ? counted.stage() : counted.commit();
    if (done.state() == SnapshotState.STAGED) {
      LOG.info("job {} staged snapshot {} of {} with {} rows: it is not current; read it by id, then publish it"
          + " (SnapshotDataset.publish, snapds publish {}@{}) or discard it", context.getJobID(), done.id(), dataset,
          done.rowCount(), dataset, done.id());
    } else {
      LOG.info("job {} published snapshot {} of {} with {} rows", context.getJobID(), done.id(), dataset,
          done.rowCount());
    }
    HeldLeases.release(handle.get().snapshotId()); // the submission's renewal, when it ran in this process
    release();
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    Optional<SnapshotHandle> handle = handle(context);
    if (handle.isEmpty()) {
      return;
    }
    int attempt = context.getConfiguration().getInt(MRJobConfig.APPLICATION_ATTEMPT_ID, 0);
    if (attempt > 1 && !setupCalled) {
      // A restarted application master whose committer does not recover calls abortJob(FAILED)
      // before it sets the job up again, to clear what the previous attempt left, and then runs
      // every task again. For a snapshot that is nothing to clear: the tasks write the same keys
      // under the same id, invisible until the commit. Aborting here made every job whose first
      // application master died fail in the second one's setupJob (snapshot ABORTED).
      LOG.info("job {}: application master attempt {} starts over; snapshot {} stays BUILDING for it",
          context.getJobID(), attempt, handle.get().snapshotId());
      return;
    }
    try {
      writer(context).abort();
      LOG.info("job {} ended {}: aborted snapshot {}", context.getJobID(), state, handle.get().snapshotId());
    } catch (SnapshotNotAvailableException e) {
      LOG.info("job {} ended {}: snapshot {} was not building any more ({})", context.getJobID(), state,
          handle.get().snapshotId(), e.getMessage());
    } finally {
      HeldLeases.release(handle.get().snapshotId()); // the submission's renewal, when it ran in this process
      release();
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

  /**
   * Yes: an application master that finds a commit begun by the previous one (Hadoop's
   * {@code COMMIT_STARTED} record, without {@code COMMIT_SUCCESS} or {@code COMMIT_FAIL}) runs
   * the job again and commits, instead of ending the job at start. Until its one metadata
   * transaction the interrupted commit changed nothing (it counted rows and held the lock, whose
   * lease the handle resumes), and two commits of the same snapshot, should the previous
   * application master still be running, publish it once: each checks that it is still BUILDING
   * in the transaction that makes it current.
   */
  @Override
  public boolean isCommitJobRepeatable(JobContext context) {
    return true;
  }

  @Override
  public void setupTask(TaskAttemptContext context) {}

  /** Tasks commit nothing: their rows are in place already, and the job counts what is stored. */
  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) {
    return false;
  }

  @Override
  public void commitTask(TaskAttemptContext context) {}

  @Override
  public void abortTask(TaskAttemptContext context) {}
}
