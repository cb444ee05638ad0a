package io.snapds.cdap;

import io.snapds.dataset.mapreduce.SnapshotOutputFormat;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The project's {@link SnapshotOutputFormat} as a pipeline sink's output: the snapshot is begun
 * by the sink's {@code prepareRun} (its handle is in the configuration) and published or aborted
 * by its {@code onRunFinish}, after the whole pipeline phase has succeeded or failed, not when
 * this one job commits. Tasks write exactly as with {@link SnapshotOutputFormat}; the committer
 * does nothing, since the driver holds the snapshot's writer (and its lease) for the whole run.
 */
public class PipelineSnapshotOutputFormat extends SnapshotOutputFormat<NullWritable> {
  /**
   * @throws IllegalStateException when the configuration carries no begun snapshot (nor a run
   *     published before): the sink's prepareRun did not run
   */
  @Override
  public void checkOutputSpecs(JobContext context) {
    Configuration conf = context.getConfiguration();
    dataset(conf);
    if (conf.get(HANDLE) == null && conf.get(ALREADY_PUBLISHED) == null) {
      throw new IllegalStateException("no snapshot was begun for this output: the sink's prepareRun sets "
          + HANDLE + " (or " + ALREADY_PUBLISHED + "), and neither is set");
    }
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
    return new LeaveToPipelineCommitter();
  }
}
