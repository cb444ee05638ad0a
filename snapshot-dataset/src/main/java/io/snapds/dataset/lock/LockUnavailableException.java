package io.snapds.dataset.lock;

import io.snapds.dataset.SnapshotDatasetException;
import java.util.Optional;

/**
 * The lock could not be had now because another writer holds it. Try again later: the retry
 * policy of {@link LockSettings} does that for you before this reaches you.
 */
public class LockUnavailableException extends SnapshotDatasetException {
  private final String lockName;
  private final LockLease holder;

  LockUnavailableException(String message, String lockName, LockLease holder) {
    super(message);
    this.lockName = lockName;
    this.holder = holder;
  }

  public String lockName() {
    return lockName;
  }

  /** The lease that was in the way, if one was seen. */
  public Optional<LockLease> holder() {
    return Optional.ofNullable(holder);
  }

  static String describe(LockLease holder) {
    return holder == null ? "nobody (a concurrent grant raced this one)"
        : "'" + holder.owner() + "' (token " + holder.token() + ") since " + holder.acquiredAt()
            + ", lease until " + holder.expiresAt();
  }
}
