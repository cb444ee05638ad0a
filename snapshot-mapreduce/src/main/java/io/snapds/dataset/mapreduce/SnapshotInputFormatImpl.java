package io.snapds.dataset.mapreduce;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.read.PinRegistry;
import io.snapds.dataset.read.SnapshotRead;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What both MapReduce APIs' snapshot input formats do, on a plain {@link Configuration}: the
 * settings, the split computation that pins one snapshot, and the pin's release. The adapters
 * ({@link SnapshotInputFormat}, {@link io.snapds.dataset.mapreduce.mapred.SnapshotInputFormat})
 * are a few lines over this class and {@link SnapshotSplitReader}, which are MapReduce's side of
 * the core's reading package ({@link io.snapds.dataset.read}).
 *
 * <p>{@link #getSplits} runs the core's read plan ({@link SnapshotRead}): it resolves the selected
 * snapshot once, pins it (so that cleanup keeps its rows even if it expires while the job runs),
 * writes the id into every split and into the configuration ({@link #PINNED_SNAPSHOT},
 * {@link #PIN_ID}), and returns one split per region of the data table that the snapshot's key
 * range overlaps. The pin is held (and renewed) in the {@link PinRegistry} of the process that
 * computed the splits until {@link #releasePin}; should that process die, the pin lapses at its
 * time-to-live.
 */
@InterfaceAudience.Private
public final class SnapshotInputFormatImpl {
  private static final String PREFIX = "snapds.mapreduce.input.";
  /** The dataset to read, {@code namespace:name}. */
  public static final String DATASET = PREFIX + "dataset";
  /** Optional: the snapshot id to read. */
  public static final String SNAPSHOT = PREFIX + "snapshot";
  /** Optional: read the snapshot current at this time (epoch milliseconds). */
  public static final String AS_OF = PREFIX + "asof.ms";
  /** The input snapshot by tag, resolved when the splits are computed. */
  public static final String TAG = PREFIX + "tag";
  /** Optional: columns to read, {@code family} or {@code family:qualifier}; default all. */
  public static final String COLUMNS = PREFIX + "columns";
  /** Optional: rows per scanner round trip. */
  public static final String CACHING = PREFIX + "caching";
  /**
   * How long the reader pin lasts without renewal (milliseconds); default one day. The submitting
   * process renews it while it holds it; if that process dies, the pin lapses this long after.
   */
  public static final String PIN_TTL = PREFIX + "pin.ttl.ms";
  /** Set by {@link #getSplits}: the snapshot the job reads. */
  public static final String PINNED_SNAPSHOT = PREFIX + "pinned.snapshot";
  /** Set by {@link #getSplits}: the reader pin that keeps it. */
  public static final String PIN_ID = PREFIX + "pin.id";
  /**
   * The name this job's pin is held under in the {@link PinRegistry} of the process that computed
   * the splits; {@link #getSplits} sets one when none is set (the CDAP source sets its run's).
   */
  public static final String PIN_HOLDER = PREFIX + "pin.holder";
  /**
   * Set by {@link #getSplits}: the schema the pinned snapshot was written with
   * ({@link io.snapds.dataset.schema.Schema#toStringWithIds}); unset for a schema-less snapshot.
   */
  public static final String PINNED_SCHEMA = PREFIX + "pinned.schema";
  /** Set by {@link #getSplits}: the dataset's first column family, which holds a schema's cells. */
  public static final String PINNED_FAMILY = PREFIX + "pinned.family";

  private static final Duration DEFAULT_PIN_TTL = Duration.ofDays(1);

  private SnapshotInputFormatImpl() {}

  public static void setInput(Configuration conf, DatasetId dataset, SnapshotSelector selector) {
    checkNotNull(dataset, "dataset must not be null");
    checkNotNull(selector, "snapshot selector must not be null");
    conf.set(DATASET, dataset.toString());
    conf.unset(SNAPSHOT);
    conf.unset(AS_OF);
    conf.unset(TAG);
    selector.snapshotId().ifPresent(id -> conf.set(SNAPSHOT, id.toString()));
    selector.tagName().ifPresent(t -> conf.set(TAG, t));
    selector.asOfTime().ifPresent(t -> conf.setLong(AS_OF, t.toEpochMilli()));
  }

  /** Only these columns: each {@code family} or {@code family:qualifier}. */
  public static void setColumns(Configuration conf, String... columns) {
    for (String c : columns) {
      checkArgument(c != null && !c.isEmpty() && !c.startsWith(":") && c.indexOf(',') < 0,
          "invalid column '%s': use 'family' or 'family:qualifier'", c);
    }
    conf.setStrings(COLUMNS, columns);
  }

  public static void setScanCaching(Configuration conf, int rows) {
    checkArgument(rows >= 1, "scan caching must be >= 1, got %s", rows);
    conf.setInt(CACHING, rows);
  }

  public static void setPinTtl(Configuration conf, Duration ttl) {
    checkArgument(ttl != null && !ttl.isNegative() && ttl.compareTo(Duration.ofDays(36_500)) <= 0 && ttl.toMillis() > 0,
        "pin time-to-live must be between 1 ms and 100 years, got %s", ttl);
    conf.setLong(PIN_TTL, ttl.toMillis());
  }

  /**
   * @throws IllegalArgumentException naming the setting when no dataset is set or it is invalid
   */
  public static DatasetId dataset(Configuration conf) {
    String value = conf.getTrimmed(DATASET);
    checkArgument(value != null && !value.isEmpty(),
        "no input dataset: call SnapshotInputFormat.setInput(job, dataset, ...) (%s is not set)", DATASET);
    return DatasetId.parse(value);
  }

  public static SnapshotSelector selector(Configuration conf) {
    String id = conf.getTrimmed(SNAPSHOT);
    String asOf = conf.getTrimmed(AS_OF);
    String tag = conf.getTrimmed(TAG);
    checkArgument(id == null || asOf == null, "both %s (%s) and %s (%s) are set: pick one", SNAPSHOT, id,
        AS_OF, asOf);
    checkArgument(tag == null || (id == null && asOf == null), "both %s (%s) and %s (%s) are set: pick one",
        TAG, tag, id != null ? SNAPSHOT : AS_OF, id != null ? id : asOf);
    if (id != null) {
      return SnapshotSelector.snapshot(SnapshotId.parse(id));
    }
    if (tag != null) {
      return SnapshotSelector.tag(tag);
    }
    return asOf != null ? SnapshotSelector.asOf(Instant.ofEpochMilli(Long.parseLong(asOf)))
        : SnapshotSelector.current();
  }

  /** The snapshot {@link #getSplits} pinned, if it ran on this configuration. */
  public static Optional<SnapshotId> pinnedSnapshot(Configuration conf) {
    return Optional.ofNullable(conf.getTrimmed(PINNED_SNAPSHOT)).map(SnapshotId::parse);
  }

  /** What each split scans: the configured columns and caching, over the whole snapshot. */
  static RowScan rowScan(Configuration conf) {
    RowScan scan = RowScan.all();
    for (String c : conf.getTrimmedStrings(COLUMNS)) {
      int colon = c.indexOf(':');
      scan = colon < 0 ? scan.family(c) : scan.column(c.substring(0, colon), c.substring(colon + 1));
    }
    int caching = conf.getInt(CACHING, 0);
    return caching > 0 ? scan.caching(caching) : scan;
  }

  /**
   * Resolves and pins the snapshot ({@link SnapshotRead}), records it in {@code conf}, holds the
   * pin in this process's {@link PinRegistry} under {@link #PIN_HOLDER}, and returns one split per
   * region that the snapshot's key range overlaps.
   *
   * @throws IllegalArgumentException for a missing or invalid setting, naming it
   * @throws io.snapds.dataset.DatasetNotFoundException if the dataset does not exist
   * @throws SnapshotNotAvailableException if the selected snapshot does not exist or is not readable
   */
  public static List<SnapshotSplit> getSplits(Configuration conf) throws IOException {
    DatasetId id = dataset(conf);
    SnapshotSelector selector = selector(conf);
    RowScan rowScan = rowScan(conf);
    Duration ttl = Duration.ofMillis(conf.getLong(PIN_TTL, DEFAULT_PIN_TTL.toMillis()));
    // splits computed again on the same configuration replace the first ones: release their pin,
    // which nothing would release otherwise
    releasePin(conf);
    String holder = conf.getTrimmed(PIN_HOLDER);
    if (holder == null) {
      holder = "mapreduce:" + UUID.randomUUID();
      conf.set(PIN_HOLDER, holder);
    }
    JobDatasets datasets = JobDatasets.open(conf);
    SnapshotRead read;
    try {
      SnapshotDataset dataset = datasets.open(id);
      read = PinRegistry.hold(holder, SnapshotRead.pin(datasets.connection(), dataset, selector,
          JobOwner.of(conf.get("mapreduce.job.name")), ttl), datasets);
    } catch (RuntimeException e) {
      datasets.close();
      throw e;
    }
    try {
      List<SnapshotSplit> splits = read.planSplits(rowScan).stream().map(SnapshotSplit::new).toList();
      conf.set(PINNED_SNAPSHOT, read.snapshotId().toString());
      conf.set(PIN_ID, read.pin().orElseThrow().pinId());
      // one metadata read per job: what the typed record reader decodes with (SnapshotRecordInputFormat)
      Optional<io.snapds.dataset.schema.Schema> schema = read.schema();
      if (schema.isPresent()) {
        conf.set(PINNED_SCHEMA, schema.get().toStringWithIds());
      } else {
        conf.unset(PINNED_SCHEMA);
      }
      conf.set(PINNED_FAMILY, read.schemaFamily());
      return splits;
    } catch (IOException | RuntimeException e) {
      PinRegistry.release(holder);
      throw e;
    }
  }

  /**
   * Releases the reader pin {@link #getSplits} took on this configuration, if this process holds
   * it; otherwise it lapses at its time-to-live. Returns whether a pin was released.
   */
  public static boolean releasePin(Configuration conf) {
    return PinRegistry.release(conf.getTrimmed(PIN_HOLDER));
  }
}
