package io.snapds.dataset.mapreduce;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.DiffRead;
import io.snapds.dataset.read.DiffSplit;
import io.snapds.dataset.read.DiffSplitReader;
import io.snapds.dataset.read.PinRegistry;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.tx.JobDatasets;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The rows that differ between two snapshots of a dataset, read in parallel: both snapshots are
 * resolved and pinned once, when the job is submitted and computes its splits ({@link DiffRead}),
 * and the key range is cut where a region of either snapshot begins; each map task merges the
 * same user-key range of both ({@link DiffSplitReader}). Mappers get the user's row key as an
 * {@link ImmutableBytesWritable} and the change (ADDED, REMOVED or CHANGED, with the row as each
 * snapshot holds it, projected onto the configured columns) as a {@link RowChangeWritable}. The
 * changes of all splits are exactly {@code SnapshotDataset.diff(from, to)}'s.
 * <pre>{@code
 * SnapshotDiffInputFormat.setInput(job, DatasetId.parse("shop:prices"),
 *     SnapshotSelector.tag("last-processed"), SnapshotSelector.current());
 * SnapshotDiffInputFormat.setColumns(job, "d:price");      // changes judged on these columns only
 * SnapshotMapReduceUtil.runJob(job, true);                  // releases both pins at the end
 * }</pre>
 * The columns, scan caching and pin time-to-live are {@link SnapshotInputFormatImpl}'s settings;
 * the pins are held, renewed and released as {@link SnapshotInputFormat}'s is (by
 * {@link SnapshotMapReduceUtil#runJob} or {@link #releasePins}). A configuration error (no dataset,
 * an unknown snapshot, schemas that do not compare) fails the submission, not a task.
 */
public class SnapshotDiffInputFormat extends InputFormat<ImmutableBytesWritable, RowChangeWritable> {
  private static final String PREFIX = "snapds.mapreduce.input.diff.";
  /** The older snapshot: {@code current}, {@code snapshot:ID}, {@code tag:NAME} or {@code asof:EPOCH_MILLIS}. */
  public static final String FROM = PREFIX + "from";
  /** The newer snapshot, in the form of {@link #FROM}. */
  public static final String TO = PREFIX + "to";
  /** Set by {@link #getSplits}: the older snapshot the job compares. */
  public static final String PINNED_FROM = PREFIX + "pinned.from";
  /** Set by {@link #getSplits}: the newer snapshot the job compares. */
  public static final String PINNED_TO = PREFIX + "pinned.to";

  private static final Duration DEFAULT_PIN_TTL = Duration.ofDays(1);
  private static final String WHEN_PIN_LAPSED = "the job's reader pins lapsed (the process that computed the splits"
      + " stopped renewing them); keep that process alive while the job runs, or raise "
      + SnapshotInputFormatImpl.PIN_TTL;

  /** Reads the changes from {@code from} to {@code to} in {@code dataset}, both resolved when the job is submitted. */
  public static void setInput(Job job, DatasetId dataset, SnapshotSelector from, SnapshotSelector to) {
    job.setInputFormatClass(SnapshotDiffInputFormat.class);
    setInput(job.getConfiguration(), dataset, from, to);
    JobCredentials.obtain(job);
  }

  /** {@link #setInput(Job, DatasetId, SnapshotSelector, SnapshotSelector)} on a configuration. */
  public static void setInput(Configuration conf, DatasetId dataset, SnapshotSelector from, SnapshotSelector to) {
    checkNotNull(dataset, "dataset must not be null");
    conf.set(SnapshotInputFormatImpl.DATASET, dataset.toString());
    conf.set(FROM, encode(checkNotNull(from, "'from' snapshot selector must not be null")));
    conf.set(TO, encode(checkNotNull(to, "'to' snapshot selector must not be null")));
  }

  /** Only these columns, each {@code family} or {@code family:qualifier}: a change is judged on them. */
  public static void setColumns(Job job, String... columns) {
    SnapshotInputFormatImpl.setColumns(job.getConfiguration(), columns);
  }

  public static void setScanCaching(Job job, int rows) {
    SnapshotInputFormatImpl.setScanCaching(job.getConfiguration(), rows);
  }

  /** How long the job's reader pins last if they are never released (default one day). */
  public static void setPinTtl(Job job, Duration ttl) {
    SnapshotInputFormatImpl.setPinTtl(job.getConfiguration(), ttl);
  }

  /** Releases the reader pins the submission took; call when the job has ended. */
  public static boolean releasePins(JobContext job) {
    return SnapshotInputFormatImpl.releasePin(job.getConfiguration());
  }

  static String encode(SnapshotSelector s) {
    if (s.snapshotId().isPresent()) {
      return "snapshot:" + s.snapshotId().get();
    }
    if (s.tagName().isPresent()) {
      return "tag:" + s.tagName().get();
    }
    return s.asOfTime().map(t -> "asof:" + t.toEpochMilli()).orElse("current");
  }

  /** @throws IllegalArgumentException naming the setting and its value when it is not a selector */
  static SnapshotSelector decode(Configuration conf, String setting) {
    String value = conf.getTrimmed(setting);
    checkArgument(value != null && !value.isEmpty(),
        "no %s snapshot: call SnapshotDiffInputFormat.setInput(job, dataset, from, to) (%s is not set)",
        setting.equals(FROM) ? "'from'" : "'to'", setting);
    if (value.equals("current")) {
      return SnapshotSelector.current();
    }
    int colon = value.indexOf(':');
    String kind = colon < 0 ? value : value.substring(0, colon);
    String arg = colon < 0 ? "" : value.substring(colon + 1);
    try {
      return switch (kind) {
        case "snapshot" -> SnapshotSelector.snapshot(SnapshotId.parse(arg));
        case "tag" -> SnapshotSelector.tag(arg);
        case "asof" -> SnapshotSelector.asOf(Instant.ofEpochMilli(Long.parseLong(arg)));
        default -> throw new IllegalArgumentException("unknown kind '" + kind + "'");
      };
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid " + setting + " '" + value + "': use current, snapshot:ID, tag:NAME"
          + " or asof:EPOCH_MILLIS (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Resolves and pins both snapshots, records them in the configuration ({@link #PINNED_FROM},
   * {@link #PINNED_TO}), holds the pins in this process's {@link PinRegistry} under
   * {@link SnapshotInputFormatImpl#PIN_HOLDER}, and returns one split per piece of the key range
   * between region starts of either snapshot.
   */
  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    DatasetId id = SnapshotInputFormatImpl.dataset(conf);
    SnapshotSelector from = decode(conf, FROM);
    SnapshotSelector to = decode(conf, TO);
    Duration ttl = Duration.ofMillis(conf.getLong(SnapshotInputFormatImpl.PIN_TTL, DEFAULT_PIN_TTL.toMillis()));
    SnapshotInputFormatImpl.releasePin(conf); // splits computed again replace the first ones
    String holder = conf.getTrimmed(SnapshotInputFormatImpl.PIN_HOLDER);
    if (holder == null) {
      holder = "mapreduce-diff:" + UUID.randomUUID();
      conf.set(SnapshotInputFormatImpl.PIN_HOLDER, holder);
    }
    JobDatasets datasets = JobDatasets.open(conf);
    DiffRead read;
    try {
      SnapshotDataset dataset = datasets.open(id);
      read = DiffRead.pin(datasets.connection(), dataset, from, to, JobOwner.of(conf.get("mapreduce.job.name")), ttl);
    } catch (RuntimeException e) {
      datasets.close(); // nothing is held yet
      throw e;
    }
    // from here the registry holds both pins and the connection: releasing the holder closes all three
    PinRegistry.hold(holder, read.before(), datasets);
    PinRegistry.hold(holder, read.after());
    try {
      List<InputSplit> splits = read.planSplits(SnapshotInputFormatImpl.rowScan(conf)).stream()
          .<InputSplit>map(Split::new).toList();
      conf.set(PINNED_FROM, read.before().snapshotId().toString());
      conf.set(PINNED_TO, read.after().snapshotId().toString());
      return splits;
    } catch (IOException | RuntimeException e) {
      SnapshotInputFormatImpl.releasePin(conf);
      throw e;
    }
  }

  @Override
  public RecordReader<ImmutableBytesWritable, RowChangeWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new Reader();
  }

  /** A core {@link DiffSplit} as an input split. */
  public static final class Split extends InputSplit implements org.apache.hadoop.io.Writable {
    private DiffSplit split;

    /** For the framework, which fills it with {@link #readFields}. */
    public Split() {}

    Split(DiffSplit split) {
      this.split = split;
    }

    /** The core split this one carries. */
    public DiffSplit delegate() {
      return split;
    }

    /** Unknown: a region holds several snapshots, and counting this one's bytes would cost a scan. */
    @Override
    public long getLength() {
      return 0;
    }

    @Override
    public String[] getLocations() {
      return split.locations();
    }

    @Override
    public void write(DataOutput out) throws IOException {
      split.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      split = DiffSplit.read(in);
    }

    @Override
    public String toString() {
      return "SnapshotDiffInputFormat.Split{" + split + "}";
    }
  }

  private static final class Reader extends RecordReader<ImmutableBytesWritable, RowChangeWritable> {
    private final ImmutableBytesWritable key = new ImmutableBytesWritable();
    private final RowChangeWritable value = new RowChangeWritable();
    private Connection connection;
    private DiffSplitReader reader;
    private boolean done;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
      Configuration conf = context.getConfiguration();
      connection = ConnectionFactory.createConnection(conf);
      try {
        reader = DiffSplitReader.open(connection, ((Split) split).delegate(), SnapshotInputFormatImpl.rowScan(conf),
            WHEN_PIN_LAPSED);
      } catch (IOException | RuntimeException e) {
        connection.close();
        throw e;
      }
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (!reader.next()) {
        done = true;
        return false;
      }
      key.set(reader.change().key());
      value.set(reader.change());
      return true;
    }

    @Override
    public ImmutableBytesWritable getCurrentKey() {
      return key;
    }

    @Override
    public RowChangeWritable getCurrentValue() {
      return value;
    }

    /** 0 while reading, 1 at the end (a snapshot range gives no cheap position estimate). */
    @Override
    public float getProgress() {
      return done ? 1f : 0f;
    }

    @Override
    public void close() throws IOException {
      try {
        if (reader != null) {
          reader.close();
        }
      } finally {
        if (connection != null) {
          connection.close();
        }
      }
    }
  }
}
