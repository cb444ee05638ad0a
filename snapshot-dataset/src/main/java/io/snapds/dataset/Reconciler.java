package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.lock.LeaseKeeper;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.lock.LockTable;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One unattended repair pass over a dataset (the Java entry point of {@code snapds reconcile}):
 * reads its {@link DatasetStatus}, runs {@link SnapshotDataset#cleanup()} (which aborts BUILDING
 * snapshots whose writer's transaction ended, sets missing cleanup fences, deletes what no
 * reader can see any more, records it, prunes the metadata and drops expired waiter and pin rows
 * it counts), and reads the status again. What it found, what it repaired and what is left
 * (something only a person or time can fix: a stalled writer, readers still holding a snapshot)
 * come back in a {@link ReconcileResult}.
 *
 * <p>Safe to run in several processes at once: a pass holds the dataset's {@code reconciler}
 * lock (a lease in the lock table with the dataset's writer lease settings, renewed by a
 * {@link LeaseKeeper} while the pass runs, as a writer's is) and a pass that finds it held does
 * nothing. A killed pass frees the lock when its lease lapses.
 * Safe to kill at any point: every step it runs is one the next pass (or cleanup) redoes. It
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
    checkArgument(owner != null && !owner.isBlank(), "reconciler owner must not be empty");
    Durations.checkPositive(stale, "stale");
    LockTable locks = dataset.locks();
    LockSettings settings = dataset.properties().lockSettings();
    Optional<LockLease> lease = locks.tryAcquire(LOCK, owner, settings.leaseDuration());
    if (lease.isEmpty()) {
      String holder = dataset.lockStatus(LOCK).lease().map(LockLease::owner).orElse("another process");
      return ReconcileResult.skipped(dataset.id(), holder);
    }
    LeaseKeeper keeper = new LeaseKeeper(locks, lease.get(), settings);
    try {
      DatasetStatus before = dataset.status();
      CleanupResult cleanup = dataset.cleanup();
      DatasetStatus after = dataset.status();
      return new ReconcileResult(dataset.id(), Optional.empty(), before.attention(stale), cleanup,
          after.attention(stale));
    } finally {
      keeper.close(); // no renewal after this
      locks.release(keeper.lease());
    }
  }

  /**
   * What one pass saw and did.
   *
   * @param skippedFor the owner of the pass that held the reconciler lock, when this one did nothing
   * @param found what needed attention before the pass
   * @param cleanup what the pass's cleanup did (null when skipped)
   * @param remaining what still needs attention after it
   */
  public record ReconcileResult(DatasetId dataset, Optional<String> skippedFor, List<String> found,
      CleanupResult cleanup, List<String> remaining) {
    public ReconcileResult {
      found = List.copyOf(found);
      remaining = List.copyOf(remaining);
    }

    static ReconcileResult skipped(DatasetId dataset, String holder) {
      return new ReconcileResult(dataset, Optional.of(holder), List.of(), null, List.of());
    }

    /** Whether the pass changed anything: aborted a dead writer or deleted a snapshot's rows. */
    public boolean repaired() {
      return cleanup != null && (!cleanup.cleaned().isEmpty() || !cleanup.abortedDeadWriters().isEmpty());
    }
  }
}
