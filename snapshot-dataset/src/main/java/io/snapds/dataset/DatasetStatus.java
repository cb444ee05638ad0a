package io.snapds.dataset;

import io.snapds.dataset.lock.LockStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a dataset looks like to an operator now ({@link SnapshotDataset#status()}): its current
 * snapshot, the snapshots being built and whether their writers are alive, its locks, and the
 * snapshots waiting for cleanup with what each waits for. Read in one metadata transaction plus
 * the lock rows and the pins of the snapshots awaiting cleanup; the only change is the one every
 * count of the lock table makes, dropping the expired waiter and pin rows it counts. {@link #attention()} lists what a repair
 * ({@code cleanup()}, {@code snapds gc}) or a person should look at.
 *
 * @param at when the status was read (the dataset's clock)
 * @param current the current snapshot, if any was published
 * @param building snapshots in state BUILDING
 * @param staged snapshots STAGED and waiting for an audit (publish or discard), oldest first
 * @param locks every lock of the dataset (the writer lock, one per source key built)
 * @param awaitingCleanup expired and aborted snapshots whose rows are not deleted yet
 * @param lastEventSequence the sequence of the dataset's newest outbox event (0 before the first)
 * @param deliveries the delivered position of every relay and consumer that recorded one
 */
public record DatasetStatus(DatasetId dataset, Instant at, Optional<SnapshotInfo> current, List<Build> building,
    List<SnapshotInfo> staged, List<LockStatus> locks, List<Backlog> awaitingCleanup, long lastEventSequence, List<Delivery> deliveries) {

  public DatasetStatus {
    building = List.copyOf(building);
    staged = List.copyOf(staged);
    locks = List.copyOf(locks);
    awaitingCleanup = List.copyOf(awaitingCleanup);
    deliveries = List.copyOf(deliveries);
  }

  /** A status without staged snapshots (the form before staging existed). */
  public DatasetStatus(DatasetId dataset, Instant at, Optional<SnapshotInfo> current, List<Build> building,
      List<LockStatus> locks, List<Backlog> awaitingCleanup, long lastEventSequence, List<Delivery> deliveries) {
    this(dataset, at, current, building, List.of(), locks, awaitingCleanup, lastEventSequence, deliveries);
  }

  /**
   * How far one relay (or consumer) has got through the outbox.
   *
   * @param name its name (row {@code o} + name)
   * @param position the sequence of the newest event it acknowledged
   * @param lastSequence the dataset's newest event
   * @param oldestRetained the oldest event the outbox still holds (0 when none)
   */
  public record Delivery(String name, long position, long lastSequence, long oldestRetained) {
    /** Events written and not yet delivered: {@code lastSequence - position}. */
    public long undelivered() {
      return Math.max(0, lastSequence - position);
    }

    /**
     * Whether events it has not delivered were pruned: it cannot catch up by itself
     * ({@link RelayBehindWindowException}).
     */
    public boolean behindWindow() {
      return position < lastSequence && (oldestRetained == 0 || oldestRetained > position + 1);
    }
  }

  /**
   * A snapshot being built.
   *
   * @param lockName the writer lock it was begun under
   * @param transactionOpen whether its building transaction is still in progress (a writer whose
   *     transaction ended without publishing is gone: cleanup aborts its snapshot)
   * @param leaseHeld whether that lock's lease is held and not expired (a writer with an open
   *     transaction but a lapsed lease is stalled, and fenced if another writer takes the lock)
   */
  public record Build(SnapshotInfo snapshot, String lockName, boolean transactionOpen, boolean leaseHeld) {
    public boolean writerAlive() {
      return transactionOpen && leaseHeld;
    }
  }

  /** What a snapshot awaiting cleanup waits for. */
  public enum Wait {
    /** Nothing: the next cleanup deletes its rows. */
    NOTHING,
    /** Its cleanup fence is not set yet (the next cleanup sets it, and deletes in a later run). */
    FENCE,
    /** A transaction that began before its fence and may still read it is in progress. */
    READERS,
    /** A live reader pin holds it. */
    PINS
  }

  /**
   * A snapshot awaiting cleanup.
   *
   * @param oldestReader the oldest transaction in progress that cleanup counts as a possible
   *     reader, if any
   */
  public record Backlog(SnapshotInfo snapshot, Wait waitsFor, int livePins, Optional<Long> oldestReader) {}

  /** Time since the current snapshot was published, if there is one. */
  public Optional<Duration> sinceLastPublish() {
    return current.flatMap(SnapshotInfo::committedAt).map(t -> Duration.between(t, at));
  }

  /**
   * What needs a repair or a person, one line each, empty when all is well: a BUILDING snapshot
   * whose writer is gone or stalled, a stage waiting for its audit longer than {@code stale}, a lock whose lease expired without release, a snapshot that
   * could be cleaned but was not, a snapshot held by readers although it was published longer
   * than {@code stale} ago (its expiry time is not recorded), a relay behind the retained event
   * window.
   */
  public List<String> attention(Duration stale) {
    List<String> found = new ArrayList<>();
    for (Build b : building) {
      if (!b.transactionOpen()) {
        found.add("snapshot " + b.snapshot().id() + " is BUILDING but its writer's transaction ended: "
            + "cleanup aborts it");
      } else if (!b.leaseHeld()) {
        found.add("snapshot " + b.snapshot().id() + " is BUILDING but the lease of lock '" + b.lockName()
            + "' is not held: its writer (" + b.snapshot().writer() + ") is stalled or dead");
      }
    }
    for (SnapshotInfo s : staged) {
      Duration waiting = Duration.between(s.stagedAt().orElse(s.createdAt()), at);
      if (waiting.compareTo(stale) > 0) {
        found.add("snapshot " + s.id() + " has waited for its audit for " + waiting + " since it was staged: publish"
            + " or discard it (the reconciler discards it past staged.max.age)");
      }
    }
    for (LockStatus l : locks) {
      if (l.lease().isPresent() && l.lease().get().isExpired(at)) {
        found.add("lock '" + l.lockName() + "' has an expired lease of " + l.lease().get().owner()
            + " (the next writer takes it over)");
      }
    }
    for (Backlog b : awaitingCleanup) {
      Duration age = Duration.between(b.snapshot().committedAt().orElse(b.snapshot().createdAt()), at);
      if (b.waitsFor() == Wait.NOTHING) {
        found.add("snapshot " + b.snapshot().id() + " (" + b.snapshot().state() + ") can be cleaned: run cleanup "
            + "(snapds gc)");
      } else if (b.waitsFor() != Wait.FENCE && age.compareTo(stale) > 0) {
        found.add("snapshot " + b.snapshot().id() + " (" + b.snapshot().state() + "), published " + age
            + " ago, is still held from cleanup by " + (b.waitsFor() == Wait.PINS ? b.livePins() + " reader pin(s)"
            : "transaction " + b.oldestReader().map(String::valueOf).orElse("?") + " in progress"));
      }
    }
    for (Delivery d : deliveries) {
      if (d.behindWindow()) {
        found.add("relay '" + d.name() + "' delivered events up to " + d.position() + " but the events after it up to "
            + (d.oldestRetained() - 1) + " were pruned (events.retain.last): resync its consumers, then move it on"
            + " with Relay.skipTo(" + (d.oldestRetained() - 1) + ")");
      }
    }
    return found;
  }
}
