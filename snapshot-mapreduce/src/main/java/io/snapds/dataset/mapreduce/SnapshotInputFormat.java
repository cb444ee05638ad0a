package io.snapds.dataset.mapreduce;

import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.DatasetId;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Reads one snapshot of a dataset, the same one for the whole job: the snapshot is resolved and
 * pinned once, when the job is submitted and computes its splits, and its id is written into every
 * split; every task and every retry reads exactly that snapshot, whatever is published or expired
 * meanwhile. Mappers get the user's row key (without the snapshot prefix) as an
 * {@link ImmutableBytesWritable} and the row as a {@link SnapshotRowWritable}.
 * <pre>{@code
 * SnapshotInputFormat.setInput(job, DatasetId.parse("shop:prices"), SnapshotSelector.current());
 * SnapshotInputFormat.setColumns(job, "d:price");
 * ... job.waitForCompletion(true);
 * SnapshotInputFormat.releasePin(job);   // or run it with SnapshotMapReduceUtil.runJob(job)
 * }</pre>
 * Settings are described in {@link SnapshotInputFormatImpl}. A configuration error (no dataset,
 * an unknown or expired snapshot) fails the submission, not a task.
 */
public class SnapshotInputFormat extends InputFormat<ImmutableBytesWritable, SnapshotRowWritable> {

  /** Reads {@code dataset}'s snapshot that {@code selector} names when the job is submitted. */
  public static void setInput(Job job, DatasetId dataset, SnapshotSelector selector) {
    job.setInputFormatClass(SnapshotInputFormat.class);
    SnapshotInputFormatImpl.setInput(job.getConfiguration(), dataset, selector);
    JobCredentials.obtain(job);
  }

  /** Only these columns, each {@code family} or {@code family:qualifier}. */
  public static void setColumns(Job job, String... columns) {
    SnapshotInputFormatImpl.setColumns(job.getConfiguration(), columns);
  }

  public static void setScanCaching(Job job, int rows) {
    SnapshotInputFormatImpl.setScanCaching(job.getConfiguration(), rows);
  }

  /** How long the job's reader pin lasts if it is never released (default one day). */
  public static void setPinTtl(Job job, Duration ttl) {
    SnapshotInputFormatImpl.setPinTtl(job.getConfiguration(), ttl);
  }

  /** Releases the reader pin the submission took; call when the job has ended. */
  public static boolean releasePin(JobContext job) {
    return SnapshotInputFormatImpl.releasePin(job.getConfiguration());
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    return List.copyOf(SnapshotInputFormatImpl.getSplits(context.getConfiguration()));
  }

  @Override
  public RecordReader<ImmutableBytesWritable, SnapshotRowWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new Reader();
  }

  private static final class Reader extends RecordReader<ImmutableBytesWritable, SnapshotRowWritable> {
    private SnapshotSplitReader reader;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
      reader = SnapshotSplitReader.open((SnapshotSplit) split, context.getConfiguration());
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      return reader.next();
    }

    @Override
    public ImmutableBytesWritable getCurrentKey() {
      return reader.key();
    }

    @Override
    public SnapshotRowWritable getCurrentValue() {
      return reader.value();
    }

    @Override
    public float getProgress() {
      return reader.progress();
    }

    @Override
    public void close() throws IOException {
      if (reader != null) {
        reader.close();
      }
    }
  }
}
