package io.snapds.dataset;

import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reconciler's step for leases that expired without a release (a writer stalled or dead with
 * its heartbeat stopped): it takes each such lock over the way a new writer would (one
 * {@code checkAndMutate} that succeeds only while the lease is still expired, so a live lease,
 * even one renewed a moment ago, is never touched), then, holding it, breaks its own lease with
 * {@link OperationsContext#breakLock} (as {@code SnapshotDataset.breakLock} does): the dataset's fence for the lock rises above every token
 * granted so far, the stalled writer's BUILDING snapshot is aborted and its transaction
 * invalidated, and the lock row is freed. A stalled writer that resumes is fenced: its lease is
 * lost and its commit fails with {@link FencedWriterException}; nothing it wrote is published.
 */
final class ExpiredLeases {
  private ExpiredLeases() {}

  /** Fences every expired lease but the reconciler's own; returns one line per lock fenced. */
  static List<String> fence(OperationsContext ops, String owner) {
    Duration lease = ops.properties().lockSettings().leaseDuration();
    List<String> fenced = new ArrayList<>();
    for (LockStatus l : ops.locks().statusAll()) {
      if (l.lockName().equals(Reconciler.LOCK) || l.lease().isEmpty()) {
        continue; // free, or ours
      }
      LockLease stale = l.lease().get();
      long floor = ops.store().read(view -> view.fence(l.lockName()));
      Optional<LockLease> took = ops.locks().tryAcquire(l.lockName(), owner, lease, floor);
      if (took.isEmpty()) {
        continue; // live (or renewed meanwhile): not ours to touch
      }
      BreakLock.run(ops, l.lockName()); // our own lease: nobody can take the lock in between
      fenced.add("fenced the expired lease of lock '" + l.lockName() + "' (token " + stale.token() + " of "
          + stale.owner() + "): its writer can no longer publish");
    }
    return fenced;
  }
}
