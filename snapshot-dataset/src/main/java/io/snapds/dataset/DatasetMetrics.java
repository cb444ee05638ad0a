package io.snapds.dataset;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.snapds.dataset.lock.LockObserver;
import io.snapds.dataset.store.CommitObserver;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of one dataset in one registry (docs/operations.md lists them): the one object the
 * {@link OperationsContext} carries, so the protocol code calls a method here and never Micrometer.
 *
 * <p>Every value is what the operation already knows (a duration it measured, a count it made, the
 * backlog its probe read); recording reads nothing. Gauges are over state held here, which is
 * bounded (four backlog reasons, one entry per relay name); there is one object per dataset and
 * registry in the process, so contexts of the same dataset opened twice add up, and a gauge never
 * points at a context that was dropped.
 */
final class DatasetMetrics implements CommitObserver, LockObserver {
  /** The tag every meter carries: {@code namespace:name}. */
  static final String DATASET_TAG = "dataset";

  /** What a snapshot awaiting cleanup waits for, as the backlog gauges' tag {@code waiting_for}. */
  enum Waiting {
    /** A live reader pin holds it. */
    PIN,
    /** A transaction in progress that may read it began before its cleanup fence. */
    TRANSACTION,
    /** It has no cleanup fence yet (the next cleanup sets one). */
    FENCE;

    String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private record Key(MeterRegistry registry, DatasetId dataset) {}

  private static final Map<Key, DatasetMetrics> ALL = new ConcurrentHashMap<>();

  /** Reports nothing: a registry with no registries under it (contexts over a metadata store alone). */
  static final DatasetMetrics NONE = new DatasetMetrics(new CompositeMeterRegistry(), DatasetId.of("none", "none"));

  private final MeterRegistry registry;
  private final Tags tags;
  private final Timer publish;
  private final Timer commit;
  private final Counter commitRetries;
  private final Counter commitConflicts;
  private final Counter commitFailures;
  private final Timer lockWait;
  private final Counter lockTimeouts;
  private final Counter takeovers;
  private final Counter fencings;
  private final Counter rowsDeleted;
  private final Counter snapshotsCleaned;
  private final Counter regionMerges;
  private final Counter countedByAttempts;
  private final Counter countedByScan;
  private final AtomicInteger pinsHeld = new AtomicInteger();
  private final Map<Waiting, AtomicLong> backlogSnapshots = new EnumMap<>(Waiting.class);
  private final Map<Waiting, AtomicLong> backlogRows = new EnumMap<>(Waiting.class);
  private final Map<String, AtomicLong[]> relays = new ConcurrentHashMap<>();

  private DatasetMetrics(MeterRegistry registry, DatasetId dataset) {
    this.registry = registry;
    this.tags = Tags.of(DATASET_TAG, dataset.toString());
    publish = Timer.builder("snapds.publish").description("publishes of a snapshot (commit() of a writer), from the "
        + "call to the committed metadata: flush, count, metadata commit").tags(tags).register(registry);
    commit = Timer.builder("snapds.commit").description("metadata commits that committed (or changed nothing), "
        + "with their retries").tags(tags).register(registry);
    commitRetries = Counter.builder("snapds.commit.retries").description("metadata commit attempts after the first")
        .tags(tags).register(registry);
    commitConflicts = Counter.builder("snapds.commit.conflicts")
        .description("metadata commit attempts that lost Tephra's conflict check").tags(tags).register(registry);
    commitFailures = Counter.builder("snapds.commit.failures")
        .description("metadata commits that gave up (budget spent, or an error)").tags(tags).register(registry);
    lockWait = Timer.builder("snapds.lock.wait").description("waits of a caller that found a lock held")
        .tags(tags).register(registry);
    lockTimeouts = Counter.builder("snapds.lock.wait.timeouts")
        .description("waits for a lock that ended without it").tags(tags).register(registry);
    takeovers = Counter.builder("snapds.lock.takeovers")
        .description("leases granted over an expired lease that was never released").tags(tags).register(registry);
    fencings = Counter.builder("snapds.fencings").description("building snapshots fenced off (aborted) because a "
        + "newer lease began or their lock was broken").tags(tags).register(registry);
    rowsDeleted = Counter.builder("snapds.cleanup.rows.deleted").baseUnit("rows")
        .description("data rows cleanup deleted (expired and aborted snapshots, and rows no snapshot owns)")
        .tags(tags).register(registry);
    snapshotsCleaned = Counter.builder("snapds.cleanup.snapshots.cleaned").baseUnit("snapshots")
        .description("snapshots whose rows cleanup deleted").tags(tags).register(registry);
    regionMerges = Counter.builder("snapds.regions.merged")
        .description("merges of empty data regions cleanup completed").tags(tags).register(registry);
    countedByAttempts = Counter.builder("snapds.publish.counted").description("publishes whose counts were "
        + "not the writer's own, by how they were taken: summed from the attempts' records, or a counting scan").tags(tags).tag("by", "attempts")
        .register(registry);
    countedByScan = Counter.builder("snapds.publish.counted").description("publishes whose counts were "
        + "not the writer's own, by how they were taken: summed from the attempts' records, or a counting scan").tags(tags).tag("by", "scan")
        .register(registry);
    Gauge.builder("snapds.reader.pins", pinsHeld, AtomicInteger::get).baseUnit("pins")
        .description("reader pins this process holds on the dataset").tags(tags).register(registry);
    for (Waiting w : Waiting.values()) {
      AtomicLong snapshots = new AtomicLong();
      AtomicLong rows = new AtomicLong();
      backlogSnapshots.put(w, snapshots);
      backlogRows.put(w, rows);
      Gauge.builder("snapds.cleanup.backlog.snapshots", snapshots, AtomicLong::get).baseUnit("snapshots")
          .description("snapshots awaiting cleanup after the last cleanup run, by what they wait for")
          .tags(tags).tag("waiting_for", w.tag()).register(registry);
      Gauge.builder("snapds.cleanup.backlog.rows", rows, AtomicLong::get).baseUnit("rows")
          .description("rows (as their records count them) of the snapshots awaiting cleanup after the last run")
          .tags(tags).tag("waiting_for", w.tag()).register(registry);
    }
  }

  /** The meters of {@code dataset} in {@code registry}: one object per pair in the process. */
  static DatasetMetrics of(MeterRegistry registry, DatasetId dataset) {
    return ALL.computeIfAbsent(new Key(registry, dataset), k -> new DatasetMetrics(registry, dataset));
  }

  MeterRegistry registry() {
    return registry;
  }

  // ---- metadata commits (the store tells) ----

  @Override
  public void conflicted() {
    commitConflicts.increment();
  }

  @Override
  public void finished(long nanos, int attempts, boolean committed) {
    if (attempts > 1) {
      commitRetries.increment(attempts - 1);
    }
    if (committed) {
      commit.record(nanos, TimeUnit.NANOSECONDS);
    } else {
      commitFailures.increment();
    }
  }

  // ---- locks (the lock table tells) ----

  @Override
  public void waited(long nanos, boolean granted) {
    lockWait.record(nanos, TimeUnit.NANOSECONDS);
    if (!granted) {
      lockTimeouts.increment();
    }
  }

  @Override
  public void tookOver() {
    takeovers.increment();
  }

  // ---- operations ----

  /** A writer published: {@code nanos} from its {@code commit()} call to the committed metadata. */
  void published(long nanos) {
    publish.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** A publish of rows other writers wrote took its counts from their attempts' records ({@code true}) or a scan. */
  void counted(boolean byAttempts) {
    (byAttempts ? countedByAttempts : countedByScan).increment();
  }

  /** {@code snapshots} building snapshots were fenced off (aborted under a newer lease or a broken lock). */
  void fenced(int snapshots) {
    if (snapshots > 0) {
      fencings.increment(snapshots);
    }
  }

  /** A cleanup run deleted {@code rows} rows of {@code snapshots} snapshots and completed {@code merges} merges. */
  void cleaned(int snapshots, long rows, int merges) {
    snapshotsCleaned.increment(snapshots);
    rowsDeleted.increment(rows);
    regionMerges.increment(merges);
  }

  /** What a cleanup run's probe found still waiting, per snapshot: why, and the rows its record counts. */
  void backlog(List<Map.Entry<Waiting, Long>> waiting) {
    Map<Waiting, long[]> sums = new EnumMap<>(Waiting.class);
    for (Waiting w : Waiting.values()) {
      sums.put(w, new long[2]);
    }
    for (Map.Entry<Waiting, Long> e : waiting) {
      long[] sum = sums.get(e.getKey());
      sum[0]++;
      sum[1] += e.getValue();
    }
    for (Waiting w : Waiting.values()) {
      backlogSnapshots.get(w).set(sums.get(w)[0]);
      backlogRows.get(w).set(sums.get(w)[1]);
    }
  }

  /**
   * A relay run of {@code relay} began {@code behind} events after its position and left
   * {@code undelivered} of those undelivered.
   */
  void relayed(String relay, long behind, long undelivered) {
    AtomicLong[] lag = relays.computeIfAbsent(relay, name -> {
      AtomicLong[] values = {new AtomicLong(), new AtomicLong()};
      Gauge.builder("snapds.relay.lag", values[0], AtomicLong::get).baseUnit("events")
          .description("events after the relay's delivered position when its last run began")
          .tags(tags).tag("relay", name).register(registry);
      Gauge.builder("snapds.relay.undelivered", values[1], AtomicLong::get).baseUnit("events")
          .description("events its last run set out to deliver and did not (the sink failed)")
          .tags(tags).tag("relay", name).register(registry);
      return values;
    });
    lag[0].set(behind);
    lag[1].set(undelivered);
  }

  /** The count of reader pins this process holds on the dataset; {@link ReaderPin} moves it. */
  AtomicInteger pinsHeld() {
    return pinsHeld;
  }
}
