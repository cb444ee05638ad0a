package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.lock.LockLease;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Revokes whatever lease holds a lock ({@link SnapshotDataset#breakLock}, and a writer's own
 * expired lease in {@link ExpiredLeases}): raises the fence above the holder's token and aborts its
 * BUILDING snapshot in one metadata transaction, invalidates its building transaction, and only
 * then frees the lease, so the holder can never publish once another may take the lock.
 */
final class BreakLock {
  private BreakLock() {
  }

  /** @return the lease that held the lock, empty when it was free */
  static Optional<LockLease> run(OperationsContext ops, String lockName) {
    checkArgument(lockName != null && !lockName.isEmpty(), "lock name must not be empty");
    Optional<LockLease> holder = ops.locks().status(lockName).lease();
    if (holder.isEmpty()) {
      return Optional.empty();
    }
    long token = holder.get().token();
    List<SnapshotId> aborted = ops.store().update("fence broken lock " + lockName, view -> {
      if (view.fence(lockName) <= token) {
        view.putFence(lockName, token + 1);
      }
      List<SnapshotId> revoked = new ArrayList<>();
      for (SnapshotInfo s : view.building()) {
        if (s.fencingToken() <= token && lockName.equals(NewSnapshot.lockName(s.sourceKey().orElse(null)))) {
          view.putSnapshot(s.toBuilder().state(SnapshotState.ABORTED)
              .cleanupFence(view.transaction().getWritePointer()).build());
          revoked.add(s.id());
        }
      }
      return revoked;
    });
    ops.metrics().fenced(aborted.size());
    for (SnapshotId s : aborted) {
      ops.txClient().invalidate(s.value()); // its building transaction may never end by itself
    }
    ops.locks().breakLock(lockName, token);
    return holder;
  }
}
