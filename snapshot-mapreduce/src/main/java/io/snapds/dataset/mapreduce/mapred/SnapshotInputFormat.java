package io.snapds.dataset.mapreduce.mapred;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.mapreduce.SnapshotInputFormatImpl;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.mapreduce.SnapshotSplit;
import io.snapds.dataset.mapreduce.SnapshotSplitReader;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

/**
 * The old ({@code org.apache.hadoop.mapred}) API's snapshot input format, for Hive and other
 * callers of that API: the same settings, splits and reader as
 * {@link io.snapds.dataset.mapreduce.SnapshotInputFormat}, through {@link SnapshotInputFormatImpl}.
 * {@code numSplits} is ignored: there is one split per region the snapshot overlaps.
 */
public class SnapshotInputFormat implements InputFormat<ImmutableBytesWritable, SnapshotRowWritable> {

  public static void setInput(JobConf job, DatasetId dataset, SnapshotSelector selector) {
    job.setInputFormat(SnapshotInputFormat.class);
    SnapshotInputFormatImpl.setInput(job, dataset, selector);
  }

  @Override
  public InputSplit[] getSplits(JobConf job, int numSplits) throws IOException {
    List<SnapshotSplit> splits = SnapshotInputFormatImpl.getSplits(job);
    return splits.toArray(new InputSplit[0]);
  }

  @Override
  public RecordReader<ImmutableBytesWritable, SnapshotRowWritable> getRecordReader(InputSplit split,
      JobConf job, Reporter reporter) throws IOException {
    SnapshotSplitReader reader = SnapshotSplitReader.open((SnapshotSplit) split, job);
    return new RecordReader<>() {
      @Override
      public boolean next(ImmutableBytesWritable key, SnapshotRowWritable value) throws IOException {
        if (!reader.next()) {
          return false;
        }
        key.set(reader.key().get(), reader.key().getOffset(), reader.key().getLength());
        value.set(reader.value().get());
        return true;
      }

      @Override
      public ImmutableBytesWritable createKey() {
        return new ImmutableBytesWritable();
      }

      @Override
      public SnapshotRowWritable createValue() {
        return new SnapshotRowWritable();
      }

      @Override
      public long getPos() {
        return 0;
      }

      @Override
      public float getProgress() {
        return reader.progress();
      }

      @Override
      public void close() throws IOException {
        reader.close();
      }
    };
  }
}
