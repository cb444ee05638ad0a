package io.snapds.dataset;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link ReaderPin} alive for a reader that runs elsewhere (a MapReduce job, a Hive
 * query): renews it every third of its time-to-live on a shared daemon thread until closed, and
 * releases it on close. If this process dies, the pin lapses at its time-to-live. A renewal that
 * finds the pin gone stops renewing (readers of the snapshot then fail rather than read short).
 */
@InterfaceAudience.Private
public final class PinKeeper implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PinKeeper.class);
  private static final ScheduledExecutorService RENEWER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "snapds-reader-pin-renewer");
    t.setDaemon(true);
    return t;
  });

  private final ReaderPin pin;
  private final ScheduledFuture<?> renewal;

  public PinKeeper(ReaderPin pin, Duration ttl) {
    Durations.checkPositive(ttl, "pin time-to-live");
    this.pin = pin;
    long every = Math.max(1, ttl.toMillis() / 3);
    this.renewal = RENEWER.scheduleWithFixedDelay(() -> renew(ttl), every, every, TimeUnit.MILLISECONDS);
  }

  private void renew(Duration ttl) {
    try {
      pin.renew(ttl);
    } catch (SnapshotNotAvailableException e) {
      LOG.warn("{}; no longer renewing it", e.getMessage());
      throw e; // ends this renewal schedule
    } catch (RuntimeException e) {
      LOG.warn("renewing {} failed, will retry: {}", pin, e.toString());
    }
  }

  public ReaderPin pin() {
    return pin;
  }

  /** Stops renewing and releases the pin; idempotent. */
  @Override
  public void close() {
    renewal.cancel(false);
    pin.close();
  }
}
