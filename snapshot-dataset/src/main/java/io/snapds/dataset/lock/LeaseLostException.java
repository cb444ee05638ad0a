package io.snapds.dataset.lock;

import io.snapds.dataset.SnapshotDatasetException;

/**
 * A heartbeat found the lease gone: it expired and another caller took the lock, or an operator
 * broke it. The holder must stop; anything it publishes now is rejected by fencing.
 */
public class LeaseLostException extends SnapshotDatasetException {
  private final LockLease lease;

  public LeaseLostException(LockLease lease) {
    super("lease on lock '" + lease.lockName() + "' with token " + lease.token() + " held by '"
        + lease.owner() + "' was lost");
    this.lease = lease;
  }

  public LockLease lease() {
    return lease;
  }
}
