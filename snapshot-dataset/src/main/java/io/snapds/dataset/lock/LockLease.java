package io.snapds.dataset.lock;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Instant;

/**
 * One grant of a lock: who holds it, the fencing token of this grant (strictly larger than every
 * earlier grant of the same lock), when it was granted and when it lapses unless renewed.
 */
public record LockLease(String lockName, String owner, long token, Instant acquiredAt, Instant expiresAt) {
  public LockLease {
    checkNotNull(lockName, "lockName");
    checkNotNull(owner, "owner");
    checkArgument(token > 0, "fencing token must be > 0, got %s", token);
    checkNotNull(acquiredAt, "acquiredAt");
    checkNotNull(expiresAt, "expiresAt");
  }

  public boolean isExpired(Instant now) {
    return !now.isBefore(expiresAt);
  }

  LockLease renewedUntil(Instant newExpiry) {
    return new LockLease(lockName, owner, token, acquiredAt, newExpiry);
  }
}
