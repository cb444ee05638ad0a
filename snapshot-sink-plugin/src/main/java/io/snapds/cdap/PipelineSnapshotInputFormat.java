package io.snapds.cdap;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.mapreduce.SnapshotRecordInputFormat;
import io.snapds.dataset.mapreduce.SnapshotRecordSplit;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import io.snapds.dataset.read.PinRegistry;
import io.snapds.dataset.read.SnapshotRead;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The project's {@link SnapshotRecordInputFormat} as a pipeline source's input (each row with its
 * snapshot's schema, for the source to decode). Computing the splits pins the snapshot, and the
 * pin is held (and renewed) in the {@link PinRegistry} of the process that computed them until it
 * is released: a plain job's client releases it from the job's configuration, which a pipeline
 * stage never sees. So the source names the holder after its run ({@link #holder}), and its
 * {@code onRunFinish} releases it by that name (the engine computes splits in the driver process,
 * where onRunFinish runs too). Splits computed again for the same run release the earlier pin.
 */
public class PipelineSnapshotInputFormat extends SnapshotRecordInputFormat {

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    List<InputSplit> splits = new ArrayList<>();
    for (InputSplit split : super.getSplits(context)) {
      splits.add(new PipelineSnapshotSplit((SnapshotRecordSplit) split));
    }
    return splits;
  }

  @Override
  public RecordReader<ImmutableBytesWritable, SnapshotRecordWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    InputSplit inner = split instanceof PipelineSnapshotSplit ? ((PipelineSnapshotSplit) split).split() : split;
    return new PipelineSnapshotRecordReader(super.createRecordReader(inner, context));
  }

  /** The name the pin of the run with {@code token} is held under. */
  static String holder(String token) {
    return "cdap-source:" + token;
  }

  /** Releases the pin of the run with {@code token}; false when there is none in this process. */
  static boolean releasePin(String token) {
    return PinRegistry.release(holder(token));
  }

  /** The snapshot the run with {@code token} pinned in this process, until its pin is released. */
  static Optional<SnapshotId> pinnedSnapshot(String token) {
    return PinRegistry.held(holder(token)).stream().findFirst().map(SnapshotRead::snapshotId);
  }
}
