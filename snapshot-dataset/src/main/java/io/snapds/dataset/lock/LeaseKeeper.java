package io.snapds.dataset.lock;

import io.snapds.dataset.DatasetNotFoundException;
import java.util.concurrent.CompletableFuture;
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
 * fencing rejects this one. A keeper given a deadline stops renewing at it (without releasing):
 * the lease then lapses after its duration. However it stops, {@link #stopped()} completes once.
 */
@InterfaceAudience.Private
public final class LeaseKeeper implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

  private final LockTable locks;
  private final LockSettings settings;
  private final AtomicReference<LockLease> lease;
  private final ScheduledExecutorService timer;
  /** {@link System#nanoTime()} after which nothing is renewed; {@code Long.MAX_VALUE}: none. */
  private final long deadlineNanos;
  private final boolean hasDeadline;
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private volatile boolean lost;
  private volatile Thread heartbeat;

  public LeaseKeeper(LockTable locks, LockLease lease, LockSettings settings) {
    this(locks, lease, settings, null);
  }

  /**
   * A keeper that stops renewing once {@code renewFor} has passed (null: never), for a holder
   * that only bridges a hand-off and must not hold the lock longer than the work it bridges.
   */
  public LeaseKeeper(LockTable locks, LockLease lease, LockSettings settings, java.time.Duration renewFor) {
    this.locks = locks;
    this.settings = settings;
    this.lease = new AtomicReference<>(lease);
    this.hasDeadline = renewFor != null;
    this.deadlineNanos = renewFor == null ? Long.MAX_VALUE : System.nanoTime() + renewFor.toNanos();
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "snapds-heartbeat-" + lease.lockName());
      t.setDaemon(true);
      heartbeat = t;
      return t;
    });
    long every = settings.heartbeatInterval().toMillis();
    timer.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
  }

  /** How long this keeper still renews: what is left before its deadline; null if it has none. */
  public java.time.Duration renewalLeft() {
    return hasDeadline ? java.time.Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())) : null;
  }

  private void beat() {
    if (hasDeadline && System.nanoTime() - deadlineNanos >= 0) {
      LOG.info("lock '{}' (token {}): renewed for as long as it was asked to; stopping its heartbeat",
          lease.get().lockName(), lease.get().token());
      stop();
      return;
    }
    try {
      lease.set(locks.renew(lease.get(), settings.leaseDuration()));
    } catch (LeaseLostException e) {
      lost = true;
      LOG.warn("{}; stopping its heartbeat", e.getMessage());
      stop();
    } catch (DatasetNotFoundException e) {
      // the dataset was dropped: no lease can be renewed in a lock table that is gone, and
      // retrying would beat for as long as the process lives. The writer learns it is lost.
      lost = true;
      LOG.warn("lock '{}': {}; stopping its heartbeat", lease.get().lockName(), e.getMessage());
      stop();
    } catch (RuntimeException e) {
      LOG.warn("heartbeat of lock '{}' failed, will retry: {}", lease.get().lockName(), e.toString());
    }
  }

  /** From the heartbeat thread itself: no more beats, and no waiting for this one to end. */
  private void stop() {
    timer.shutdown();
    stopped.complete(null);
  }

  public LockLease lease() {
    return lease.get();
  }

  public boolean isLost() {
    return lost;
  }

  /**
   * Completes once when the keeper stops: closed, its lease found lost, or past its deadline.
   * Actions chained to it run on the thread that stopped it.
   */
  public CompletableFuture<Void> stopped() {
    return stopped;
  }

  /** Stops the heartbeat (does not release the lease); idempotent. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      if (Thread.currentThread() != heartbeat) { // an action run on stop may close it: no waiting for itself
        timer.awaitTermination(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      stopped.complete(null);
    }
  }
}
