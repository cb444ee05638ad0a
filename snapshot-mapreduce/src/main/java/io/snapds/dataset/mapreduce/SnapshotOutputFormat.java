package io.snapds.dataset.mapreduce;

import io.snapds.dataset.tx.JobDatasets;
import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.LeaseHold;
import io.snapds.dataset.NewSnapshot;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a job's output as one new snapshot of a dataset, published when the job succeeds (or,
 * with {@link #setStage}, staged for an audit: complete and readable by id, but not current until
 * {@link SnapshotDataset#publish} makes it so).
 * <ul>
 *   <li>At submission ({@link #checkOutputSpecs}) the snapshot is begun: the writer lock is
 *       taken and the building transaction started; the snapshot's handle goes into the job
 *       configuration, which every task and the application master then read. A run id that
 *       was published before begins nothing: tasks discard their rows and nothing is published.
 *   <li>Tasks write the rows they are given (the key is ignored; the row carries its own key)
 *       under the snapshot's prefix, invisible to every reader.
 *   <li>The submitting process renews the writer lock's lease until the job has ended (the
 *       application master may wait longer than the lease); the {@link SnapshotOutputCommitter}
 *       renews it in the application master too, publishes on {@code commitJob} and aborts on
 *       {@code abortJob}.
 * </ul>
 * A re-executed task attempt writes the same rows again over the same keys, so it leaves no
 * duplicates, provided a task writes the same row keys each time it runs on the same input (the
 * assumption HBase's {@code TableOutputFormat} makes too). An attempt that failed keeps what it
 * sent: the published counts are those of the rows the snapshot holds, whoever wrote them.
 * {@link #setOutput} switches speculative execution off (map and reduce): the losing attempt of a
 * speculative race is killed just as the job commits, the one moment its rows must not arrive;
 * a task writer checks before each batch it sends that the snapshot is still BUILDING
 * ({@link SnapshotRecordWriter}), which narrows that race for attempts that outlive their job
 * anyway (docs/design.md "Left open").
 */
public class SnapshotOutputFormat<K> extends OutputFormat<K, SnapshotRowWritable> {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotOutputFormat.class);
  private static final String PREFIX = "snapds.mapreduce.output.";
  /** The dataset to write, {@code namespace:name}. */
  public static final String DATASET = PREFIX + "dataset";
  /** Optional: the run id; a run id is published at most once. */
  public static final String RUN_ID = PREFIX + "run.id";
  /** Optional: bytes each task buffers before sending rows to HBase (default 4 MiB). */
  public static final String WRITE_BUFFER_BYTES = PREFIX + "write.buffer.bytes";
  /**
   * Optional: {@code true} to stage the snapshot when the job succeeds instead of publishing it
   * ({@link SnapshotWriter#stage()}); default {@code false}.
   */
  public static final String STAGE = PREFIX + "stage";
  /** Set at submission: the begun snapshot's {@link SnapshotHandle#encode() handle}. */
  public static final String HANDLE = PREFIX + "handle";
  /** Set at submission instead of {@link #HANDLE} when the run id was published before. */
  public static final String ALREADY_PUBLISHED = PREFIX + "already.published";

  private static final long DEFAULT_WRITE_BUFFER = 4L << 20;

  public static void setOutput(Job job, DatasetId dataset) {
    setOutput(job, dataset, null);
  }

  /** Writes a new snapshot of {@code dataset}, for run {@code runId} when it is not null. */
  public static void setOutput(Job job, DatasetId dataset, String runId) {
    checkNotNull(dataset, "dataset must not be null");
    checkArgument(runId == null || !runId.isBlank(), "run id must not be blank, got '%s'", runId);
    job.setOutputFormatClass(SnapshotOutputFormat.class);
    Configuration conf = job.getConfiguration();
    conf.set(DATASET, dataset.toString());
    if (runId == null) {
      conf.unset(RUN_ID);
    } else {
      conf.set(RUN_ID, runId);
    }
    conf.unset(HANDLE);
    conf.unset(ALREADY_PUBLISHED);
    // a losing speculative attempt is killed as the job commits: its last batch could land in
    // the published snapshot (a caller may switch it on again, knowing that)
    job.setMapSpeculativeExecution(false);
    job.setReduceSpeculativeExecution(false);
    JobCredentials.obtain(job);
  }

  /**
   * Write, audit, publish: when {@code stage} is true, the job's commit stages its snapshot
   * ({@link SnapshotWriter#stage()}) instead of publishing it. The staged snapshot is complete and
   * readable by id ({@link #outputSnapshot} names it once the job is submitted; a
   * {@link SnapshotInputFormat} reads it with {@code SnapshotSelector.snapshot(id)}), but it is not
   * current, and time travel by time does not see it, until {@link SnapshotDataset#publish} makes
   * it current; {@link SnapshotDataset#discard} drops it. A job that fails stages nothing.
   */
  public static void setStage(Job job, boolean stage) {
    job.getConfiguration().setBoolean(STAGE, stage);
  }

  /**
   * Whether the job stages its snapshot instead of publishing it ({@link #STAGE}).
   *
   * @throws IllegalArgumentException naming the setting and its value when it is neither true nor false
   */
  public static boolean stage(Configuration conf) {
    String value = conf.getTrimmed(STAGE);
    if (value == null || value.isEmpty()) {
      return false;
    }
    checkArgument(value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"),
        "%s must be true or false, got '%s'", STAGE, value);
    return Boolean.parseBoolean(value);
  }

  public static void setWriteBufferBytes(Job job, long bytes) {
    checkArgument(bytes >= 1024, "write buffer must be >= 1024 bytes, got %s", bytes);
    job.getConfiguration().setLong(WRITE_BUFFER_BYTES, bytes);
  }

  /**
   * @throws IllegalArgumentException naming the setting when no dataset is set or it is invalid
   */
  public static DatasetId dataset(Configuration conf) {
    String value = conf.getTrimmed(DATASET);
    checkArgument(value != null && !value.isEmpty(),
        "no output dataset: call SnapshotOutputFormat.setOutput(job, dataset, ...) (%s is not set)", DATASET);
    return DatasetId.parse(value);
  }

  /** The snapshot the submission began, if it began one. */
  public static Optional<SnapshotHandle> handle(Configuration conf) {
    return Optional.ofNullable(conf.get(HANDLE)).map(SnapshotHandle::decode);
  }

  /** The snapshot that the run id had published before, when the submission found one. */
  public static Optional<SnapshotId> alreadyPublished(Configuration conf) {
    return Optional.ofNullable(conf.getTrimmed(ALREADY_PUBLISHED)).map(SnapshotId::parse);
  }

  /**
   * The snapshot the job writes, known from its submission on: the one it began, or the one its
   * run id had written before (then the job writes nothing). After a staging job ({@link #setStage})
   * succeeded it is STAGED: audit it by reading it by id, then publish or discard it. After a
   * publishing job it is current; after a failed job it is ABORTED.
   * ({@code SnapshotDataset.snapshot(id).state()} tells which.)
   */
  public static Optional<SnapshotId> outputSnapshot(Configuration conf) {
    Optional<SnapshotId> begun = handle(conf).map(SnapshotHandle::snapshotId);
    return begun.isPresent() ? begun : alreadyPublished(conf);
  }

  static long writeBufferBytes(Configuration conf) {
    return conf.getLong(WRITE_BUFFER_BYTES, DEFAULT_WRITE_BUFFER);
  }

  /**
   * Begins the snapshot (once per configuration) and records its handle in the configuration.
   *
   * @throws IllegalArgumentException for a missing or invalid setting, naming it
   * @throws io.snapds.dataset.DatasetNotFoundException if the dataset does not exist
   * @throws io.snapds.dataset.lock.LockUnavailableException if the writer lock stays taken
   */
  @Override
  public void checkOutputSpecs(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    DatasetId id = dataset(conf);
    boolean stage = stage(conf); // a bad value fails the submission, not the job's commit
    if (conf.get(HANDLE) != null || conf.get(ALREADY_PUBLISHED) != null) {
      return; // begun by an earlier call on this configuration
    }
    JobDatasets datasets = JobDatasets.open(conf);
    boolean holding = false;
    try {
      SnapshotDataset dataset = datasets.open(id);
      NewSnapshot snapshot = dataset.newSnapshot().owner(JobOwner.of(context.getJobName()))
          .writeBufferBytes(writeBufferBytes(conf));
      String runId = conf.getTrimmed(RUN_ID);
      if (runId != null) {
        snapshot.runId(runId);
      }
      // closing aborts only if we fail before detaching
      try (SnapshotWriter writer = snapshot.begin()) {
        if (writer.alreadyPublished().isPresent()) {
          LOG.info("run '{}' wrote snapshot {} of {} before (it is {}): this job {} nothing", runId,
              writer.snapshotId(), id, writer.alreadyPublished().get().state(), stage ? "stages" : "publishes");
          conf.set(ALREADY_PUBLISHED, writer.snapshotId().toString());
          return;
        }
        // the application master resumes it (SnapshotOutputCommitter.setupJob); until it has
        // finished it, this process renews the lease, over the datasets opened here
        LeaseHold hold = writer.detachHoldingLease();
        HeldLeases.hold(datasets, hold);
        holding = true;
        conf.set(HANDLE, hold.handle().encode());
        LOG.info("began snapshot {} of {} for job '{}'", writer.snapshotId(), id, context.getJobName());
      }
    } finally {
      if (!holding) {
        datasets.close();
      }
    }
  }

  /**
   * Stops this process's renewal of the lease of the snapshot that {@code conf}'s submission
   * began ({@link #checkOutputSpecs}), if this process holds it: once the job has ended (it then
   * stops by itself at its next renewal, as the committer released the lock) or when its
   * submission failed. Returns whether this process held it.
   */
  public static boolean releaseLease(Configuration conf) {
    return handle(conf).map(h -> HeldLeases.release(h.snapshotId())).orElse(false);
  }

  /**
   * Aborts the snapshot a submission began for a job that then never ran (its submission failed
   * after {@link #checkOutputSpecs}). A job that ran is aborted by its committer instead.
   * Returns whether there was a snapshot to abort.
   */
  public static boolean abortUnsubmitted(Configuration conf) throws IOException {
    Optional<SnapshotHandle> handle = handle(conf);
    if (handle.isEmpty()) {
      return false;
    }
    releaseLease(conf); // first: nothing renews the lease of a snapshot given up
    try (JobDatasets datasets = JobDatasets.open(conf)) {
      datasets.open(dataset(conf)).resume(handle.get()).abort();
    }
    return true;
  }

  @Override
  public RecordWriter<K, SnapshotRowWritable> getRecordWriter(TaskAttemptContext context) throws IOException {
    return SnapshotRecordWriter.open(context.getConfiguration());
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
    return new SnapshotOutputCommitter();
  }
}
