package io.snapds.cdap;

import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import java.io.IOException;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** The snapshot record reader over a {@link PipelineSnapshotSplit}: unwraps the split, delegates the rest. */
final class PipelineSnapshotRecordReader extends RecordReader<ImmutableBytesWritable, SnapshotRecordWritable> {
  private final RecordReader<ImmutableBytesWritable, SnapshotRecordWritable> reader;

  PipelineSnapshotRecordReader(RecordReader<ImmutableBytesWritable, SnapshotRecordWritable> reader) {
    this.reader = reader;
  }

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) throws IOException, InterruptedException {
    reader.initialize(split instanceof PipelineSnapshotSplit ? ((PipelineSnapshotSplit) split).split() : split, context);
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    return reader.nextKeyValue();
  }

  @Override
  public ImmutableBytesWritable getCurrentKey() throws IOException, InterruptedException {
    return reader.getCurrentKey();
  }

  @Override
  public SnapshotRecordWritable getCurrentValue() throws IOException, InterruptedException {
    return reader.getCurrentValue();
  }

  @Override
  public float getProgress() throws IOException, InterruptedException {
    return reader.getProgress();
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
