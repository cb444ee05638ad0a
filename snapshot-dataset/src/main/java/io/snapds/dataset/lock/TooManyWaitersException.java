package io.snapds.dataset.lock;

/** The lock already has its maximum number of waiters; this caller did not queue. Retryable. */
public class TooManyWaitersException extends LockUnavailableException {
  private final int waiters;

  public TooManyWaitersException(String lockName, int waiters, int maxWaiters, LockLease holder) {
    super("lock '" + lockName + "' already has " + waiters + " waiters (max " + maxWaiters
        + "), held by " + describe(holder), lockName, holder);
    this.waiters = waiters;
  }

  public int waiters() {
    return waiters;
  }
}
