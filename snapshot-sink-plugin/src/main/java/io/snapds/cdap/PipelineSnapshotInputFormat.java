package io.snapds.cdap;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.mapreduce.SnapshotRecordInputFormat;
import io.snapds.dataset.mapreduce.SnapshotInputFormatImpl;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import io.snapds.dataset.mapreduce.SnapshotRecordSplit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The project's {@link SnapshotRecordInputFormat} as a pipeline source's input (each row with its
 * snapshot's schema, for the source to decode). Computing the splits
 * pins the snapshot, and the pin is held (and renewed) by the process that computed them until it
 * is released: a plain job's client releases it from the job's configuration, which a pipeline
 * stage never sees. So this format also files the pin under the run token the source put into
 * its configuration, and the source's {@code onRunFinish} releases it by that token (the engine
 * computes splits in the driver process, where onRunFinish runs too).
 */
public class PipelineSnapshotInputFormat extends SnapshotRecordInputFormat {
  /** Set by the source in prepareRun: names this run's pin. */
  static final String RUN_TOKEN = "snapds.cdap.source.run.token";
  private static final Map<String, RunPin> PINS = new ConcurrentHashMap<>();

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    List<InputSplit> splits = new ArrayList<>();
    for (InputSplit split : super.getSplits(context)) {
      splits.add(new PipelineSnapshotSplit((SnapshotRecordSplit) split));
    }
    Configuration conf = context.getConfiguration();
    String token = conf.getTrimmed(RUN_TOKEN);
    String pin = conf.getTrimmed(SnapshotInputFormatImpl.PIN_ID);
    Optional<SnapshotId> snapshot = SnapshotInputFormatImpl.pinnedSnapshot(conf);
    if (token != null && pin != null && snapshot.isPresent()) {
      RunPin earlier = PINS.put(token, new RunPin(pin, snapshot.get()));
      if (earlier != null && !earlier.pinId().equals(pin)) {
        release(earlier.pinId()); // splits computed again for the same run: keep only the newest pin
      }
    }
    return splits;
  }

  @Override
  public RecordReader<ImmutableBytesWritable, SnapshotRecordWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    InputSplit inner = split instanceof PipelineSnapshotSplit ? ((PipelineSnapshotSplit) split).split() : split;
    return new PipelineSnapshotRecordReader(super.createRecordReader(inner, context));
  }

  /** Releases the pin filed under {@code token}; false when there is none in this process. */
  static boolean releasePin(String token) {
    RunPin pin = PINS.remove(token);
    return pin != null && release(pin.pinId());
  }

  /** The snapshot the run named {@code token} pinned in this process, until its pin is released. */
  static Optional<SnapshotId> pinnedSnapshot(String token) {
    return Optional.ofNullable(PINS.get(token)).map(RunPin::snapshot);
  }

  private static boolean release(String pinId) {
    Configuration conf = new Configuration(false);
    conf.set(SnapshotInputFormatImpl.PIN_ID, pinId);
    return SnapshotInputFormatImpl.releasePin(conf);
  }
}
