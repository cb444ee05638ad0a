package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.Durations;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.schema.Schema;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The read plan every engine runs above the split and its reader: which snapshot a job or query
 * reads ({@link SnapshotSelector}, resolved once), the {@link ReaderPin} that keeps its rows from
 * cleanup while tasks read it, its schema, and its splits along the data table's regions for the
 * key ranges asked ({@link SplitPlanner}). The tasks read each {@link ReadSplit} with a
 * {@link SplitReader}; they need neither this object nor the metadata.
 * <pre>{@code
 * try (SnapshotRead read = SnapshotRead.pin(connection, dataset, SnapshotSelector.current(), "nightly", ttl)) {
 *   List<ReadSplit> splits = read.planSplits(RowScan.all());
 *   ... hand the splits to the tasks; renew() at least once per ttl while they run ...
 * }
 * }</pre>
 * A process that plans for a job it does not wait on holds the read in the {@link PinRegistry},
 * which renews it until the job's end releases it. Cost: pinning is the selector's resolution
 * (one or two metadata reads), one lock table write and one metadata read of the key range;
 * each plan is one region lookup; each renewal one lock table check-and-put; the schema one
 * metadata read. None grows with the dataset's history.
 */
public final class SnapshotRead implements AutoCloseable {
  private final Connection connection;
  private final SnapshotDataset dataset;
  private final SnapshotKeys keys;
  private final ReaderPin pin;
  private final Duration ttl;

  private SnapshotRead(Connection connection, SnapshotDataset dataset, SnapshotKeys keys, ReaderPin pin,
      Duration ttl) {
    this.connection = connection;
    this.dataset = dataset;
    this.keys = keys;
    this.pin = pin;
    this.ttl = ttl;
  }

  /**
   * Resolves {@code selector} in {@code dataset} and pins the snapshot for {@code owner} for
   * {@code ttl} ({@link SnapshotSelector#pin}: "current" is the snapshot current while the pin holds).
   *
   * @param connection the HBase connection the dataset was opened on; splits are planned with it
   * @throws SnapshotNotAvailableException if the selector names no readable snapshot
   * @throws IllegalArgumentException if {@code ttl} is not positive
   */
  public static SnapshotRead pin(Connection connection, SnapshotDataset dataset, SnapshotSelector selector,
      String owner, Duration ttl) {
    checkNotNull(connection, "connection must not be null");
    checkNotNull(dataset, "dataset must not be null");
    checkNotNull(selector, "snapshot selector must not be null");
    checkNotNull(owner, "pin owner must not be null");
    Durations.checkPositive(ttl, "pin time-to-live");
    ReaderPin pin = selector.pin(dataset, owner, ttl);
    try {
      return new SnapshotRead(connection, dataset, dataset.keys(pin.snapshotId()), pin, ttl);
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
  }

  /**
   * A read of {@code snapshot}, which another process (or an earlier stage of the same query)
   * pinned and holds: this object neither renews nor releases a pin. Checks that the snapshot is
   * still readable: committed or expired, and not cleaned.
   *
   * @throws SnapshotNotAvailableException if it was never committed, or was cleaned (its pin lapsed)
   */
  public static SnapshotRead pinnedElsewhere(Connection connection, SnapshotDataset dataset, SnapshotId snapshot) {
    checkNotNull(connection, "connection must not be null");
    checkNotNull(dataset, "dataset must not be null");
    checkNotNull(snapshot, "snapshot id must not be null");
    SnapshotState state = dataset.snapshot(snapshot).state();
    if (state != SnapshotState.COMMITTED && state != SnapshotState.STAGED && state != SnapshotState.EXPIRED) {
      throw new SnapshotNotAvailableException(dataset.id(), snapshot, state);
    }
    if (dataset.isCleaned(snapshot)) {
      throw new SnapshotNotAvailableException(dataset.id(), "snapshot " + snapshot + " of dataset " + dataset.id()
          + " that was pinned for this read was cleaned: its pin lapsed (the process that pinned it stopped"
          + " renewing it); run the job or query again");
    }
    return new SnapshotRead(connection, dataset, dataset.keys(snapshot), null, null);
  }

  public DatasetId dataset() {
    return dataset.id();
  }

  public SnapshotId snapshotId() {
    return keys.id();
  }

  /** Where the snapshot's rows are in the data table. */
  public SnapshotKeys keys() {
    return keys;
  }

  /** The pin this read holds; empty for {@link #pinnedElsewhere}. */
  public Optional<ReaderPin> pin() {
    return Optional.ofNullable(pin);
  }

  /** The time-to-live each renewal extends the pin by; empty for {@link #pinnedElsewhere}. */
  public Optional<Duration> ttl() {
    return Optional.ofNullable(ttl);
  }

  /**
   * The schema the snapshot was written with; empty for a schema-less snapshot. One metadata read
   * through the dataset the read was opened with (which must still be open).
   */
  public Optional<Schema> schema() {
    return dataset.schema(snapshotId());
  }

  /** The dataset's first column family, which holds a schema's cells. */
  public String schemaFamily() {
    return dataset.properties().families().get(0);
  }

  /**
   * One split per region that {@code scan}'s key range within the snapshot overlaps (the whole
   * snapshot when it has no range), cut to that range. Only the range of {@code scan} is used.
   */
  public List<ReadSplit> planSplits(RowScan scan) throws IOException {
    return planSplits(List.of(checkNotNull(scan, "row scan must not be null")));
  }

  /** {@link #planSplits(RowScan)} for each scan, in order, with one region lookup. */
  public List<ReadSplit> planSplits(List<RowScan> scans) throws IOException {
    checkNotNull(scans, "row scans must not be null");
    return SplitPlanner.plan(connection, dataset.id(), keys, scans);
  }

  /**
   * Extends the pin to its time-to-live from now.
   *
   * @throws IllegalStateException for a read {@link #pinnedElsewhere}
   * @throws SnapshotNotAvailableException if the pin is gone (it lapsed and cleanup collected it)
   */
  public void renew() {
    checkState(pin != null, "snapshot %s of %s was pinned elsewhere: its holder renews it", snapshotId(), dataset());
    pin.renew(ttl);
  }

  /** Releases the pin, if this read holds one; idempotent. */
  @Override
  public void close() {
    if (pin != null) {
      pin.close();
    }
  }

  @Override
  public String toString() {
    return "SnapshotRead{" + dataset() + " @ " + snapshotId() + (pin == null ? ", pinned elsewhere" : ", " + pin) + "}";
  }
}
