package io.snapds.dataset.mapreduce;

import io.snapds.dataset.schema.Schema;
import java.io.IOException;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** Reads a {@link SnapshotRecordSplit}: its rows, each with the schema of the split's snapshot. */
final class SnapshotRecordReader extends RecordReader<ImmutableBytesWritable, SnapshotRecordWritable> {
  private final SnapshotRecordWritable value = new SnapshotRecordWritable();
  private SnapshotSplitReader reader;
  private Schema schema;
  private String family;

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
    SnapshotRecordSplit s = (SnapshotRecordSplit) split;
    schema = s.schema().orElse(null);
    family = s.family();
    reader = SnapshotSplitReader.open(s.split(), context.getConfiguration());
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    if (!reader.next()) {
      return false;
    }
    value.set(reader.value().get(), schema, family);
    return true;
  }

  @Override
  public ImmutableBytesWritable getCurrentKey() {
    return reader.key();
  }

  @Override
  public SnapshotRecordWritable getCurrentValue() {
    return value;
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
