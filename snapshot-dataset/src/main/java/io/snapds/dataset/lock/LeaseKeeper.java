package io.snapds.dataset.lock;

import io.snapds.dataset.DatasetNotFoundException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews a lease every heartbeat interval on a daemon thread until closed. When a renewal finds
 * the lease gone, or the dataset dropped, it stops and remembers that: {@link #isLost()} then
 * says so. A renewal that failed for any other reason (HBase unreachable) is logged and tried
 * again at the next beat; if that lasts longer than the lease, another writer takes over and
 * fencing rejects this one.
 */
@InterfaceAudience.Private
public final class LeaseKeeper implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

  private final LockTable locks;
  private final LockSettings settings;
  private final AtomicReference<LockLease> lease;
  private final ScheduledExecutorService timer;
  private volatile boolean lost;

  public LeaseKeeper(LockTable locks, LockLease lease, LockSettings settings) {
    this.locks = locks;
    this.settings = settings;
    this.lease = new AtomicReference<>(lease);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "snapds-heartbeat-" + lease.lockName());
      t.setDaemon(true);
      return t;
    });
    long every = settings.heartbeatInterval().toMillis();
    timer.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
  }

  private void beat() {
    try {
      lease.set(locks.renew(lease.get(), settings.leaseDuration()));
    } catch (LeaseLostException e) {
      lost = true;
      LOG.warn("{}; stopping its heartbeat", e.getMessage());
      timer.shutdown();
    } catch (DatasetNotFoundException e) {
      // the dataset was dropped: no lease can be renewed in a lock table that is gone, and
      // retrying would beat for as long as the process lives. The writer learns it is lost.
      lost = true;
      LOG.warn("lock '{}': {}; stopping its heartbeat", lease.get().lockName(), e.getMessage());
      timer.shutdown();
    } catch (RuntimeException e) {
      LOG.warn("heartbeat of lock '{}' failed, will retry: {}", lease.get().lockName(), e.toString());
    }
  }

  public LockLease lease() {
    return lease.get();
  }

  public boolean isLost() {
    return lost;
  }

  /** Stops the heartbeat (does not release the lease). */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
