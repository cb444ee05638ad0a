package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.lock.LockSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A dataset's settings, chosen at create and stored in its metadata table: column families,
 * retention, the writer lock, and how long one snapshot build may take. Immutable; validated
 * when built and again when a dataset is opened.
 */
public final class DatasetProperties {
  /** The most threads one cleanup deletes with. */
  public static final int MAX_CLEANUP_THREADS = 256;
  private static final Pattern FAMILY = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");

  private final List<String> families;
  private final RetentionPolicy retention;
  private final LockSettings lockSettings;
  private final Duration maxBuildTime;
  private final int commitRetries;
  private final int historyRetainLast;
  private final Duration historyRetainMaxAge;
  private final int eventsRetainLast;
  private final int presplitMaxRegions;
  private final int cleanupThreads;
  private final byte[][] firstSplitPoints;
  private final boolean mergeEmptyRegions;
  private final Duration stagedMaxAge;

  private DatasetProperties(Builder b) {
    checkArgument(!b.families.isEmpty(), "a dataset needs at least one column family");
    for (String f : b.families) {
      checkArgument(f != null && FAMILY.matcher(f).matches(),
          "invalid column family '%s': use 1-64 letters, digits, '_', '.' or '-'", f);
    }
    checkArgument(b.families.stream().distinct().count() == b.families.size(),
        "duplicate column family in %s", b.families);
    checkArgument(b.maxBuildTime != null && b.maxBuildTime.getSeconds() >= 1,
        "max build time must be >= 1s, got %s", b.maxBuildTime);
    checkArgument(b.maxBuildTime.getSeconds() <= Integer.MAX_VALUE,
        "max build time must be <= %s s, got %s", Integer.MAX_VALUE, b.maxBuildTime);
    checkArgument(b.commitRetries >= 0, "commit retries must be >= 0, got %s", b.commitRetries);
    checkArgument(b.historyRetainLast >= 1, "history.retain.last must be >= 1, got %s", b.historyRetainLast);
    checkArgument(b.historyRetainMaxAge == null || !b.historyRetainMaxAge.isNegative(),
        "history.retain.max.age must not be negative, got %s", b.historyRetainMaxAge);
    this.historyRetainLast = b.historyRetainLast;
    checkArgument(b.eventsRetainLast >= 1, "events.retain.last must be >= 1, got %s", b.eventsRetainLast);
    this.eventsRetainLast = b.eventsRetainLast;
    checkArgument(b.presplitMaxRegions >= 0 && b.presplitMaxRegions <= 10_000,
        "data.presplit.max.regions must be between 0 (off) and 10000, got %s", b.presplitMaxRegions);
    this.presplitMaxRegions = b.presplitMaxRegions;
    checkArgument(b.cleanupThreads >= 1 && b.cleanupThreads <= MAX_CLEANUP_THREADS,
        "cleanup.threads must be between 1 and %s, got %s", MAX_CLEANUP_THREADS, b.cleanupThreads);
    this.cleanupThreads = b.cleanupThreads;
    this.firstSplitPoints = validSplitPoints(b.firstSplitPoints);
    this.mergeEmptyRegions = b.mergeEmptyRegions;
    checkArgument(b.stagedMaxAge != null && b.stagedMaxAge.getSeconds() >= 1,
        "staged.max.age must be >= 1s, got %s", b.stagedMaxAge);
    this.stagedMaxAge = b.stagedMaxAge;
    this.historyRetainMaxAge = b.historyRetainMaxAge;
    this.families = List.copyOf(b.families);
    this.retention = checkNotNull(b.retention, "retention");
    this.lockSettings = checkNotNull(b.lockSettings, "lock settings");
    this.maxBuildTime = b.maxBuildTime;
    this.commitRetries = b.commitRetries;
  }

  private static byte[][] validSplitPoints(List<byte[]> points) {
    checkNotNull(points, "first split points");
    checkArgument(points.size() <= 10_000, "data.presplit.first.points: at most 10000 points, got %s", points.size());
    byte[][] copy = new byte[points.size()][];
    for (int i = 0; i < copy.length; i++) {
      byte[] p = points.get(i);
      checkArgument(p != null && p.length > 0, "data.presplit.first.points: point %s is empty", i);
      copy[i] = p.clone();
      checkArgument(i == 0 || Arrays.compareUnsigned(copy[i - 1], copy[i]) < 0,
          "data.presplit.first.points must be sorted and distinct: '%s' comes after '%s'",
          org.apache.hadoop.hbase.util.Bytes.toStringBinary(copy[i]),
          org.apache.hadoop.hbase.util.Bytes.toStringBinary(i == 0 ? copy[i] : copy[i - 1]));
    }
    return copy;
  }

  public static DatasetProperties defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return builder().families(families).retention(retention).lockSettings(lockSettings)
        .maxBuildTime(maxBuildTime).commitRetries(commitRetries)
        .historyHorizon(historyRetainLast, historyRetainMaxAge).eventsRetainLast(eventsRetainLast)
        .presplitMaxRegions(presplitMaxRegions)
        .firstSplitPoints(firstSplitPoints()).cleanupThreads(cleanupThreads).mergeEmptyRegions(mergeEmptyRegions)
        .stagedMaxAge(stagedMaxAge);
  }

  /** Column families of the data table; the first is the default one. */
  public List<String> families() {
    return families;
  }

  public String defaultFamily() {
    return families.get(0);
  }

  public RetentionPolicy retention() {
    return retention;
  }

  public LockSettings lockSettings() {
    return lockSettings;
  }

  /**
   * The timeout of the Tephra transaction that builds a snapshot. A writer that takes longer is
   * aborted by the transaction service; a dead writer stops blocking cleanup after this long.
   */
  public Duration maxBuildTime() {
    return maxBuildTime;
  }

  /**
   * {@code commit.retries}: how often a metadata commit of an operation (begin, publish, abort,
   * expire, rollback, tags, lock fencing, schema, create, drop) is retried after losing a race
   * with another commit to this dataset, with a jittered backoff from 5 ms doubling up to 1 s.
   * Default 30: many writers starting at once each lose a race to every one that commits
   * first. Cleanup's deferrable bookkeeping (which the next run redoes) is retried at most 10
   * times (backoff up to 500 ms) whatever this says. 0 means one attempt.
   */
  public int commitRetries() {
    return commitRetries;
  }

  /**
   * The history horizon by count: cleanup keeps the newest this many history entries and
   * records of cleaned snapshots (with their run-id and source-key entries), and deletes older
   * ones unless {@link #historyRetainMaxAge()} keeps them. Default 100.
   */
  public int historyRetainLast() {
    return historyRetainLast;
  }

  /**
   * The outbox window: cleanup keeps the newest this many events ({@code events.retain.last});
   * a consumer further behind gets {@link EventsPrunedException}. Default 1000.
   */
  public int eventsRetainLast() {
    return eventsRetainLast;
  }

  /**
   * How many regions a new snapshot's key range is split into before its first row, at most, from
   * the region boundaries of its parent's range ({@code data.presplit.max.regions}, default 64;
   * 0 turns pre-splitting off: {@code data.presplit=false}). See {@code docs/design.md}.
   */
  public int presplitMaxRegions() {
    return presplitMaxRegions;
  }

  /**
   * How many threads a cleanup deletes a snapshot's regions with ({@code cleanup.threads}, 1 to
   * {@link #MAX_CLEANUP_THREADS}, default 4): one region per thread at a time.
   */
  public int cleanupThreads() {
    return cleanupThreads;
  }

  /**
   * The user keys at which a dataset's first snapshot (one without a parent) is split before its
   * first row ({@code data.presplit.first.points}; default none). Later snapshots inherit their
   * parent's boundaries instead. Sorted, distinct; capped like the inherited ones by
   * {@link #presplitMaxRegions()}. Returns copies.
   */
  public List<byte[]> firstSplitPoints() {
    List<byte[]> out = new ArrayList<>(firstSplitPoints.length);
    for (byte[] p : firstSplitPoints) {
      out.add(p.clone());
    }
    return out;
  }

  /**
   * Whether cleanup merges the data table's regions that hold no live snapshot any more (those of
   * cleaned snapshots) into one, so the region count follows the live data ({@code data.merge},
   * default true). See {@code docs/design.md}.
   */
  public boolean mergeEmptyRegions() {
    return mergeEmptyRegions;
  }

  /**
   * How long a staged snapshot waits for its audit ({@code staged.max.age}, default 7 days): the
   * reconciler discards a stage older than this, so that an audit that never ran does not keep
   * its rows for ever.
   */
  public Duration stagedMaxAge() {
    return stagedMaxAge;
  }

  /** The history horizon by age: entries younger than this are kept beyond the count. Default none. */
  public java.util.Optional<Duration> historyRetainMaxAge() {
    return java.util.Optional.ofNullable(historyRetainMaxAge);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DatasetProperties p && families.equals(p.families)
        && retention.equals(p.retention) && lockSettings.equals(p.lockSettings)
        && maxBuildTime.equals(p.maxBuildTime) && commitRetries == p.commitRetries
        && historyRetainLast == p.historyRetainLast && Objects.equals(historyRetainMaxAge, p.historyRetainMaxAge)
        && eventsRetainLast == p.eventsRetainLast && presplitMaxRegions == p.presplitMaxRegions
        && Arrays.deepEquals(firstSplitPoints, p.firstSplitPoints)
        && cleanupThreads == p.cleanupThreads && mergeEmptyRegions == p.mergeEmptyRegions
        && stagedMaxAge.equals(p.stagedMaxAge);
  }

  @Override
  public int hashCode() {
    return Objects.hash(families, retention, lockSettings, maxBuildTime, commitRetries, historyRetainLast,
        historyRetainMaxAge, eventsRetainLast, presplitMaxRegions, Arrays.deepHashCode(firstSplitPoints),
        cleanupThreads, mergeEmptyRegions, stagedMaxAge);
  }

  @Override
  public String toString() {
    return "DatasetProperties{families=" + families + ", " + retention + ", " + lockSettings
        + ", maxBuildTime=" + maxBuildTime + ", commitRetries=" + commitRetries
        + ", historyRetainLast=" + historyRetainLast + ", historyRetainMaxAge=" + historyRetainMaxAge
        + ", eventsRetainLast=" + eventsRetainLast + ", presplitMaxRegions=" + presplitMaxRegions
        + ", firstSplitPoints=" + firstSplitPoints.length
        + ", cleanupThreads=" + cleanupThreads + ", mergeEmptyRegions=" + mergeEmptyRegions + ", stagedMaxAge=" + stagedMaxAge + "}";
  }

  /**
   * Defaults: family {@code d}, retain the last 3, default lock settings, 1 h builds, 30 commit retries,
   * a history horizon of the last 100 entries, the last 1000 events.
   */
  public static final class Builder {
    private List<String> families = List.of("d");
    private RetentionPolicy retention = RetentionPolicy.DEFAULT;
    private LockSettings lockSettings = LockSettings.DEFAULT;
    private Duration maxBuildTime = Duration.ofHours(1);
    private int commitRetries = 30;
    private int historyRetainLast = 100;
    private Duration historyRetainMaxAge;
    private int eventsRetainLast = 1000;
    private int presplitMaxRegions = 64;
    private int cleanupThreads = 4;
    private List<byte[]> firstSplitPoints = List.of();
    private boolean mergeEmptyRegions = true;
    private Duration stagedMaxAge = Duration.ofDays(7);

    public Builder families(List<String> families) {
      this.families = checkNotNull(families, "families");
      return this;
    }

    public Builder families(String... families) {
      return families(List.of(families));
    }

    public Builder retention(RetentionPolicy retention) {
      this.retention = retention;
      return this;
    }

    public Builder lockSettings(LockSettings lockSettings) {
      this.lockSettings = lockSettings;
      return this;
    }

    public Builder maxBuildTime(Duration maxBuildTime) {
      this.maxBuildTime = maxBuildTime;
      return this;
    }

    /** See {@link DatasetProperties#commitRetries()}; must be >= 0. */
    public Builder commitRetries(int commitRetries) {
      this.commitRetries = commitRetries;
      return this;
    }

    /** See {@link DatasetProperties#historyRetainLast()}; {@code maxAge} may be null (none). */
    public Builder historyHorizon(int retainLast, Duration maxAge) {
      this.historyRetainLast = retainLast;
      this.historyRetainMaxAge = maxAge;
      return this;
    }

    /** See {@link DatasetProperties#presplitMaxRegions()}; 0 turns pre-splitting off. */
    public Builder presplitMaxRegions(int presplitMaxRegions) {
      this.presplitMaxRegions = presplitMaxRegions;
      return this;
    }

    /** See {@link DatasetProperties#cleanupThreads()}. */
    public Builder cleanupThreads(int cleanupThreads) {
      this.cleanupThreads = cleanupThreads;
      return this;
    }

    /** See {@link DatasetProperties#firstSplitPoints()}: user keys, sorted and distinct. */
    public Builder firstSplitPoints(List<byte[]> userKeys) {
      this.firstSplitPoints = checkNotNull(userKeys, "first split points");
      return this;
    }

    /** See {@link DatasetProperties#stagedMaxAge()}. */
    public Builder stagedMaxAge(Duration stagedMaxAge) {
      this.stagedMaxAge = stagedMaxAge;
      return this;
    }

    /** See {@link DatasetProperties#mergeEmptyRegions()}; false leaves cleaned snapshots' regions as they are. */
    public Builder mergeEmptyRegions(boolean mergeEmptyRegions) {
      this.mergeEmptyRegions = mergeEmptyRegions;
      return this;
    }

    /** See {@link DatasetProperties#eventsRetainLast()}. */
    public Builder eventsRetainLast(int eventsRetainLast) {
      this.eventsRetainLast = eventsRetainLast;
      return this;
    }

    public DatasetProperties build() {
      return new DatasetProperties(this);
    }
  }
}
