package io.snapds.cdap;

import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The committer of {@link PipelineSnapshotOutputFormat}: commits nothing, since rows stay
 * invisible until the sink's {@code onRunFinish} publishes them.
 *
 * <p>A top-level class, not a nested one: CDAP 6.11's artifact inspector reads every class of
 * an exported package with an ASM5 visitor, which rejects the NestHost/NestMembers attributes
 * that javac 11+ writes for nested classes (and so the whole artifact).
 */
final class LeaveToPipelineCommitter extends OutputCommitter {
  @Override
  public void setupJob(JobContext context) {
  }

  @Override
  public void commitJob(JobContext context) {
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) {
  }

  @Override
  public void setupTask(TaskAttemptContext context) {
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) {
    return false;
  }

  @Override
  public void commitTask(TaskAttemptContext context) {
  }

  @Override
  public void abortTask(TaskAttemptContext context) {
  }
}
