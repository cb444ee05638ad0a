package io.snapds.dataset.mapreduce;

import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.schema.Schema;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Reads one snapshot as typed records: what {@link SnapshotInputFormat} does (the snapshot is
 * resolved and pinned once, at submission, for the whole job), with each row handed to mappers as
 * a {@link SnapshotRecordWritable}, which decodes it with the schema that snapshot was written
 * with and still gives the raw row. A snapshot of a schema-less dataset gives its raw rows only.
 * <pre>{@code
 * SnapshotRecordInputFormat.setInput(job, DatasetId.parse("shop:prices"), SnapshotSelector.current());
 * // in the mapper: value.record().getDecimal("price"), value.record().getDate("day"), value.row()
 * }</pre>
 * The schema is read once, when the splits are computed, and travels in each split.
 */
public class SnapshotRecordInputFormat extends InputFormat<ImmutableBytesWritable, SnapshotRecordWritable> {

  /** Reads {@code dataset}'s snapshot that {@code selector} names when the job is submitted. */
  public static void setInput(Job job, DatasetId dataset, SnapshotSelector selector) {
    job.setInputFormatClass(SnapshotRecordInputFormat.class);
    SnapshotInputFormatImpl.setInput(job.getConfiguration(), dataset, selector);
    JobCredentials.obtain(job);
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
    Configuration conf = context.getConfiguration();
    List<SnapshotSplit> splits = SnapshotInputFormatImpl.getSplits(conf);
    String schemaText = conf.getTrimmed(SnapshotInputFormatImpl.PINNED_SCHEMA);
    Schema schema = schemaText == null ? null : Schema.parse(schemaText);
    String family = conf.getTrimmed(SnapshotInputFormatImpl.PINNED_FAMILY);
    List<InputSplit> out = new ArrayList<>();
    for (SnapshotSplit split : splits) {
      out.add(new SnapshotRecordSplit(split, schema, family));
    }
    return out;
  }

  @Override
  public RecordReader<ImmutableBytesWritable, SnapshotRecordWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new SnapshotRecordReader();
  }
}
