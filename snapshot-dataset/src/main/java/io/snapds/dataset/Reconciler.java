package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.lock.LeaseKeeper;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.lock.LockTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One unattended repair pass over a dataset (the Java entry point of {@code snapds reconcile}):
 * reads its {@link DatasetStatus}, runs {@link SnapshotDataset#cleanup()} (which aborts BUILDING
 * snapshots whose writer's transaction ended, sets missing cleanup fences, deletes what no
 * reader can see any more, records it, prunes the metadata and drops expired waiter and pin rows
 * it counts), relays undelivered outbox events to the sinks it was given (each a {@link Relay}
 * under its own name, once before cleanup so that its pruning never cuts events a relay could
 * still deliver, and once after it for the events the cleanup wrote), and reads the status
 * again. What it found, what it repaired and what is left
 * (something only a person or time can fix: a stalled writer, readers still holding a snapshot)
 * come back in a {@link ReconcileResult}.
 *
 * <p>Safe to run in several processes at once: a pass holds the dataset's {@code reconciler}
 * lock (a lease in the lock table with the dataset's writer lease settings, renewed by a
 * {@link LeaseKeeper} while the pass runs, as a writer's is) and a pass that finds it held does
 * nothing. A killed pass frees the lock when its lease lapses.
 * Safe to kill at any point: every step it runs is one the next pass (or cleanup) redoes. It
 * also finishes dataset lifecycle steps cut off by a crash: it writes the CREATED event of a
 * dataset whose create stopped before its first metadata commit, and for a dataset being dropped
 * (DROPPED committed, tables still there) it relays the last events and deletes the tables once
 * every delivered position reached DROPPED (docs/events.md). A lease that expired without a
 * release (a stalled or dead writer) is taken over and broken, so that writer is fenced
 * ({@code ExpiredLeases}). It
 * never touches a live writer (its transaction is open: cleanup leaves it alone) nor a snapshot
 * a live reader pins or may still read.
 */
public final class Reconciler {
  /** The lock-table lock a pass holds. */
  public static final String LOCK = "reconciler";

  private Reconciler() {}

  /**
   * One pass over {@code dataset} by {@code owner} (named in the lock while it runs).
   *
   * @param stale how long readers may hold a snapshot before that is reported as needing attention
   */
  public static ReconcileResult runOnce(SnapshotDataset dataset, String owner, Duration stale) {
    return runOnce(dataset, owner, stale, Map.of());
  }

  /**
   * One pass over {@code dataset} that also relays its undelivered events to each of
   * {@code relays} (relay name to sink; the name keys the relay's delivered position). A sink
   * that fails, or a relay behind the retained window, does not stop the pass: it is reported
   * under {@link ReconcileResult#remaining()} and the next pass tries again from the last
   * acknowledged position.
   */
  public static ReconcileResult runOnce(SnapshotDataset dataset, String owner, Duration stale,
      Map<String, EventSink> relays) {
    return runOnce(dataset.operations(), owner, stale, relays);
  }

  static ReconcileResult runOnce(OperationsContext dataset, String owner, Duration stale,
      Map<String, EventSink> relays) {
    checkArgument(owner != null && !owner.isBlank(), "reconciler owner must not be empty");
    Durations.checkPositive(stale, "stale");
    LockTable locks = dataset.locks();
    LockSettings settings = dataset.properties().lockSettings();
    Optional<LockLease> lease = locks.tryAcquire(LOCK, owner, settings.leaseDuration());
    if (lease.isEmpty()) {
      String holder = locks.status(LOCK).lease().map(LockLease::owner).orElse("another process");
      return ReconcileResult.skipped(dataset.id(), holder);
    }
    LeaseKeeper keeper = new LeaseKeeper(locks, lease.get(), settings);
    boolean tablesDeleted = false;
    try {
      long dropped = dataset.store().read(io.snapds.dataset.store.MetadataView::droppedSequence);
      if (dropped != 0) {
        ReconcileResult r = finishDrop(dataset, relays, dropped, keeper);
        tablesDeleted = r.repairs().contains(DROPPED_TABLES);
        return r;
      }
      List<String> repairs = new ArrayList<>();
      if (dataset.store().read(io.snapds.dataset.store.MetadataView::neverCommitted)) {
        dataset.store().update("write the CREATED event of a create cut off", view -> {
          view.announceCreated();
          return null;
        });
        repairs.add(WROTE_CREATED);
      }
      // the pass reads outside any transaction (the one its caller's dataset may be in included)
      DatasetReads reads = new DatasetReads(dataset);
      DatasetStatus before = reads.status();
      Map<String, Relay.RelayResult> relayed = new TreeMap<>();
      Map<String, String> behind = new TreeMap<>();
      relay(dataset, relays, relayed, behind);
      repairs.addAll(ExpiredLeases.fence(dataset, owner)); // before cleanup: it cleans what they built
      try {
        repairs.addAll(discardStaleStages(dataset));
      } catch (CommitConflictException e) { // the next pass discards them; this one goes on to cleanup
        repairs.add("discarding stale stages conflicted on every attempt; the next pass tries again");
      }
      CleanupResult cleanup = new Cleanup(dataset).run(CleanupListener.NONE);
      relay(dataset, relays, relayed, behind);
      List<String> remaining = new ArrayList<>(reads.status().attention(stale));
      relayed.values().forEach(r -> r.failure().ifPresent(f -> remaining.add("relay '" + r.relay()
          + "' failed (the next pass delivers again from sequence " + (r.toPosition() + 1) + "): " + f)));
      behind.forEach((name, message) -> { // status lists a relay with a position row already
        if (remaining.stream().noneMatch(a -> a.startsWith("relay '" + name + "'"))) {
          remaining.add(message);
        }
      });
      return new ReconcileResult(dataset.id(), Optional.empty(), before.attention(stale), cleanup,
          List.copyOf(relayed.values()), remaining, repairs);
    } finally {
      keeper.close(); // no renewal after this
      if (!tablesDeleted) {
        locks.release(keeper.lease());
      }
    }
  }

  /**
   * Discards the stages older than {@code staged.max.age}: an audit that never ran (its consumer
   * stopped, its pipeline was abandoned) must not keep a stage's rows for ever. One commit, which
   * reads the staged index only.
   */
  private static List<String> discardStaleStages(OperationsContext dataset) {
    java.time.Instant cutoff = dataset.clock().instant().minus(dataset.properties().stagedMaxAge());
    List<SnapshotInfo> discarded = dataset.store().update("discard stale stages",
        view -> StagedPublication.discardStagedBefore(dataset.id(), view, cutoff));
    Cleanup.fenceAfter(dataset, discarded);
    return discarded.stream().map(s -> "discarded staged snapshot " + s.id() + ", staged at "
        + s.stagedAt().orElseThrow() + ", older than staged.max.age " + dataset.properties().stagedMaxAge()).toList();
  }

  /** {@link ReconcileResult#repairs()}: the pass wrote the CREATED event of a create cut off before it. */
  public static final String WROTE_CREATED = "wrote the CREATED event of a create cut off before its first commit";
  /** {@link ReconcileResult#repairs()}: the pass deleted the tables of a dataset being dropped. */
  public static final String DROPPED_TABLES = "deleted the tables of a dataset being dropped";

  /**
   * A dataset being dropped (its DROPPED event committed, its tables not yet deleted, e.g. a drop
   * cut off between the two): relay its last events, then delete its tables once every delivered
   * position reached the DROPPED event. No cleanup: the tables go.
   */
  private static ReconcileResult finishDrop(OperationsContext dataset, Map<String, EventSink> relays, long dropped,
      LeaseKeeper keeper) {
    Map<String, Relay.RelayResult> relayed = new TreeMap<>();
    Map<String, String> behind = new TreeMap<>();
    relay(dataset, relays, relayed, behind);
    List<String> remaining = new ArrayList<>(behind.values());
    relayed.values().forEach(r -> r.failure().ifPresent(f -> remaining.add("relay '" + r.relay() + "' failed: " + f)));
    List<String> found = List.of("dataset is being dropped (DROPPED event " + dropped + ")");
    CleanupResult none = new CleanupResult(List.of(), 0, List.of(), List.of(), List.of());
    keeper.close(); // the lock table is about to go
    java.util.SortedMap<String, Long> waiting =
        new io.snapds.dataset.admin.CompositeDatasetAdmin(dataset.id(), dataset.connection(), dataset.txClient())
            .finishDrop();
    if (!waiting.isEmpty()) {
      remaining.add("dataset is being dropped: its tables stay until these delivered positions reach the DROPPED "
          + "event " + dropped + ": " + waiting);
      return new ReconcileResult(dataset.id(), Optional.empty(), found, none, List.copyOf(relayed.values()),
          remaining, List.of());
    }
    return new ReconcileResult(dataset.id(), Optional.empty(), found, none, List.copyOf(relayed.values()),
        remaining, List.of(DROPPED_TABLES));
  }

  private static void relay(OperationsContext dataset, Map<String, EventSink> relays,
      Map<String, Relay.RelayResult> results, Map<String, String> behind) {
    for (Map.Entry<String, EventSink> r : relays.entrySet()) {
      Relay.RelayResult earlier = results.get(r.getKey());
      if (earlier != null && earlier.failure().isPresent()) {
        continue; // one failure per pass: the next pass tries again
      }
      if (behind.containsKey(r.getKey())) {
        continue;
      }
      try {
        Relay.RelayResult now = Relay.of(dataset, r.getKey(), r.getValue()).run();
        results.put(r.getKey(), earlier == null ? now : earlier.then(now));
      } catch (RelayBehindWindowException e) {
        behind.put(r.getKey(), e.getMessage()); // it needs a person
      }
    }
  }

  /**
   * What one pass saw and did.
   *
   * @param skippedFor the owner of the pass that held the reconciler lock, when this one did nothing
   * @param found what needed attention before the pass
   * @param cleanup what the pass's cleanup did (null when skipped)
   * @param relayed what each relay of the pass delivered, in relay name order (both of its runs
   *     together); a relay behind the retained window has none
   * @param remaining what still needs attention after it
   * @param repairs what it repaired besides cleanup and relaying, one line each: lifecycle steps it
   *     finished ({@link #WROTE_CREATED}, {@link #DROPPED_TABLES}) and expired leases it fenced
   */
  public record ReconcileResult(DatasetId dataset, Optional<String> skippedFor, List<String> found,
      CleanupResult cleanup, List<Relay.RelayResult> relayed, List<String> remaining, List<String> repairs) {
    public ReconcileResult {
      found = List.copyOf(found);
      relayed = List.copyOf(relayed);
      remaining = List.copyOf(remaining);
      repairs = List.copyOf(repairs);
    }

    static ReconcileResult skipped(DatasetId dataset, String holder) {
      return new ReconcileResult(dataset, Optional.of(holder), List.of(), null, List.of(), List.of(), List.of());
    }

    /** Events the pass's relays delivered, all together. */
    public long eventsRelayed() {
      return relayed.stream().mapToLong(Relay.RelayResult::delivered).sum();
    }

    /**
     * Whether the pass changed anything: aborted a dead writer, deleted a snapshot's rows, relayed
     * events, fenced an expired lease or finished a create or a drop.
     */
    public boolean repaired() {
      return cleanup != null && (!cleanup.cleaned().isEmpty() || !cleanup.abortedDeadWriters().isEmpty())
          || eventsRelayed() > 0 || !repairs.isEmpty();
    }
  }
}
