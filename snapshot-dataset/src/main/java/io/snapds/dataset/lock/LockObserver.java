package io.snapds.dataset.lock;

import org.apache.yetus.audience.InterfaceAudience;

/**
 * Told of what the lock table's callers waited for and took over, for the dataset's metrics:
 * only what {@link LockTable} already knows, never a read of its own. Implementations must be
 * cheap and must not throw.
 */
@InterfaceAudience.Private
public interface LockObserver {
  /** Observes nothing. */
  LockObserver NONE = new LockObserver() {
    @Override
    public void waited(long nanos, boolean granted) {}

    @Override
    public void tookOver() {}
  };

  /**
   * A caller found the lock held and waited {@code nanos} as a registered waiter;
   * {@code granted} when it got the lock, false when it timed out.
   */
  void waited(long nanos, boolean granted);

  /** A lease was granted over an earlier lease that had expired without a release. */
  void tookOver();
}
