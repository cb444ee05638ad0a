package io.snapds.dataset.lock;

import java.time.Instant;
import java.util.Optional;

/**
 * What the lock table says of one lock now: the current lease if any (possibly expired, which
 * means the next writer may take it over), the last token granted, and how many callers wait.
 */
public record LockStatus(String lockName, Optional<LockLease> lease, long lastToken, int waiters) {
  public boolean isHeld(Instant now) {
    return lease.isPresent() && !lease.get().isExpired(now);
  }
}
