package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotReader;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which snapshot a reader reads: the current one, one by id, the one a tag names, or the one
 * that was current at a time. Resolved once, when a job computes its splits or a query is compiled, and then pinned
 * ({@link #pin}). The MapReduce formats, Hive, Spark, the CDAP source and the command line all
 * select with it. Immutable.
 */
public final class SnapshotSelector {
  private static final SnapshotSelector CURRENT = new SnapshotSelector(null, null, null);

  private final SnapshotId snapshot;
  private final String tag;
  private final Instant asOf;

  private SnapshotSelector(SnapshotId snapshot, String tag, Instant asOf) {
    this.snapshot = snapshot;
    this.tag = tag;
    this.asOf = asOf;
  }

  /** The snapshot current when the job is submitted. */
  public static SnapshotSelector current() {
    return CURRENT;
  }

  public static SnapshotSelector snapshot(SnapshotId snapshot) {
    return new SnapshotSelector(checkNotNull(snapshot, "snapshot id must not be null"), null, null);
  }

  /**
   * The snapshot tagged {@code name} when the selection is resolved (a tag moved later does not
   * move a job or query already resolved: it is pinned by id).
   *
   * @throws IllegalArgumentException if the name is empty
   */
  public static SnapshotSelector tag(String name) {
    checkNotNull(name, "tag must not be null");
    checkArgument(!name.isEmpty(), "tag must not be empty");
    return new SnapshotSelector(null, name, null);
  }

  /** The snapshot that was current at {@code time} (time travel). */
  public static SnapshotSelector asOf(Instant time) {
    return new SnapshotSelector(null, null, checkNotNull(time, "as-of time must not be null"));
  }

  /** Whether this selects whatever is current (then it is pinned with {@code pinCurrent}). */
  public boolean isCurrent() {
    return snapshot == null && tag == null && asOf == null;
  }

  public Optional<SnapshotId> snapshotId() {
    return Optional.ofNullable(snapshot);
  }

  public Optional<String> tagName() {
    return Optional.ofNullable(tag);
  }

  public Optional<Instant> asOfTime() {
    return Optional.ofNullable(asOf);
  }

  /**
   * The id this selector names in {@code dataset} now.
   *
   * @throws io.snapds.dataset.SnapshotNotAvailableException if there is no such readable snapshot
   */
  public SnapshotId resolve(SnapshotDataset dataset) {
    return reader(dataset).snapshotId();
  }

  /**
   * A reader of the snapshot this selects, through the Java API ({@code readSnapshot},
   * {@code readTag}, {@code readAsOf} or {@code readCurrent}): what the command line's scan and
   * get read.
   *
   * @throws io.snapds.dataset.SnapshotNotAvailableException if there is no such readable snapshot
   */
  public SnapshotReader reader(SnapshotDataset dataset) {
    checkNotNull(dataset, "dataset must not be null");
    if (snapshot != null) {
      return dataset.readSnapshot(snapshot);
    }
    if (tag != null) {
      return dataset.readTag(tag);
    }
    if (asOf != null) {
      return dataset.readAsOf(asOf);
    }
    return dataset.readCurrent();
  }

  /**
   * Resolves this selection and pins the snapshot for {@code owner}: "current" is the snapshot
   * current while the pin holds ({@link SnapshotDataset#pinCurrent}); an explicit id, tag or time must
   * name a readable snapshot, checked again once the pin row exists ({@link SnapshotDataset#pin}).
   *
   * @throws io.snapds.dataset.SnapshotNotAvailableException if there is no such readable snapshot
   */
  public ReaderPin pin(SnapshotDataset dataset, String owner, Duration ttl) {
    return isCurrent() ? dataset.pinCurrent(owner, ttl) : dataset.pin(resolve(dataset), owner, ttl);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SnapshotSelector other && Objects.equals(snapshot, other.snapshot)
        && Objects.equals(tag, other.tag) && Objects.equals(asOf, other.asOf);
  }

  @Override
  public int hashCode() {
    return Objects.hash(snapshot, tag, asOf);
  }

  @Override
  public String toString() {
    return snapshot != null ? "snapshot " + snapshot : tag != null ? "snapshot tagged '" + tag + "'"
        : asOf != null ? "as of " + asOf : "current snapshot";
  }
}
