package io.snapds.dataset;

import io.snapds.dataset.lock.LeaseKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A detached snapshot whose writer lock this process keeps renewing until another process has
 * resumed it and finished it ({@link SnapshotWriter#detachHoldingLease()}): the bridge across a
 * hand-off such as a MapReduce job's, from its submission to its application master, during
 * which nothing else renews the lease. It ends by itself when a renewal finds the lease gone (the
 * process that resumed the snapshot published or aborted it and released the lock; or the lease
 * was taken over or broken) or when the dataset's {@code maxBuildTime} has passed since the
 * detach; {@link #close()} ends it earlier. It never releases the lease: that is the resuming
 * writer's to do, and when no one resumes, the lease lapses its duration after the last renewal.
 */
public final class LeaseHold implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseHold.class);

  private final SnapshotHandle handle;
  private final LeaseKeeper keeper;

  LeaseHold(SnapshotHandle handle, LeaseKeeper keeper) {
    this.handle = handle;
    this.keeper = keeper;
  }

  /** The handle another process resumes the snapshot with ({@link SnapshotDataset#resume}). */
  public SnapshotHandle handle() {
    return handle;
  }

  /** Whether this process still renews the lease. */
  public boolean isRenewing() {
    return !keeper.stopped().isDone();
  }

  /**
   * Runs {@code action} once when the hold ends, however it ends (at once if it has ended), on
   * the thread that ended it; an exception it throws is logged.
   */
  public void whenEnded(Runnable action) {
    keeper.stopped().whenComplete((ignored, failure) -> {
      try {
        action.run();
      } catch (RuntimeException e) {
        LOG.warn("an action run when the lease hold of snapshot {} ended failed: {}", handle.snapshotId(),
            e.toString());
      }
    });
  }

  /** Stops renewing (does not release the lease); idempotent. */
  @Override
  public void close() {
    keeper.close();
  }

  @Override
  public String toString() {
    return "LeaseHold{snapshot=" + handle.snapshotId() + ", renewing=" + isRenewing() + "}";
  }
}
