package io.snapds.dataset.lock;

import java.time.Duration;

/** Waited the whole acquire timeout and the lock stayed taken. Retryable. */
public class LockTimeoutException extends LockUnavailableException {
  public LockTimeoutException(String lockName, Duration waited, LockLease holder) {
    super("timed out after " + waited + " waiting for lock '" + lockName + "', held by "
        + describe(holder), lockName, holder);
  }
}
