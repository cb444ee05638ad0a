package io.snapds.dataset.lock;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.Durations;
import java.time.Duration;
import java.util.Objects;

/**
 * How writers share a dataset's writer lock: how long a lease lasts without a heartbeat, how
 * often the holder renews it, how long and how many callers may wait, and how a caller that
 * could not get the lock retries. Immutable; validated when built.
 */
public final class LockSettings {
  public static final LockSettings DEFAULT = builder().build();

  private final Duration leaseDuration;
  private final Duration heartbeatInterval;
  private final Duration acquireTimeout;
  private final int maxWaiters;
  private final int retryAttempts;
  private final Duration retryBackoff;
  private final Duration retryMaxBackoff;

  private LockSettings(Builder b) {
    Durations.checkPositive(b.leaseDuration, "lease duration");
    Duration heartbeat = b.heartbeatInterval != null ? b.heartbeatInterval : b.leaseDuration.dividedBy(3);
    Durations.checkPositive(heartbeat, "heartbeat interval");
    checkArgument(heartbeat.compareTo(b.leaseDuration) < 0,
        "heartbeat interval must be shorter than the lease (%s), got %s", b.leaseDuration, heartbeat);
    checkArgument(b.acquireTimeout != null && !b.acquireTimeout.isNegative(),
        "acquire timeout must be >= 0, got %s", b.acquireTimeout);
    checkArgument(b.acquireTimeout.compareTo(Durations.MAX) <= 0, "acquire timeout must be at most %s (100 years), got %s",
        Durations.MAX, b.acquireTimeout);
    checkArgument(b.maxWaiters >= 1, "max waiters must be >= 1, got %s", b.maxWaiters);
    checkArgument(b.retryAttempts >= 1, "retry attempts must be >= 1, got %s", b.retryAttempts);
    Durations.checkPositive(b.retryBackoff, "retry backoff");
    checkArgument(b.retryMaxBackoff != null && b.retryMaxBackoff.compareTo(b.retryBackoff) >= 0,
        "retry max backoff must be >= retry backoff (%s), got %s", b.retryBackoff, b.retryMaxBackoff);
    Durations.checkPositive(b.retryMaxBackoff, "retry max backoff");
    this.leaseDuration = b.leaseDuration;
    this.heartbeatInterval = heartbeat;
    this.acquireTimeout = b.acquireTimeout;
    this.maxWaiters = b.maxWaiters;
    this.retryAttempts = b.retryAttempts;
    this.retryBackoff = b.retryBackoff;
    this.retryMaxBackoff = b.retryMaxBackoff;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().leaseDuration(leaseDuration).heartbeatInterval(heartbeatInterval)
        .acquireTimeout(acquireTimeout).maxWaiters(maxWaiters).retryAttempts(retryAttempts)
        .retryBackoff(retryBackoff, retryMaxBackoff);
  }

  /** How long a lease lasts after its last heartbeat; then another writer may take over. */
  public Duration leaseDuration() {
    return leaseDuration;
  }

  public Duration heartbeatInterval() {
    return heartbeatInterval;
  }

  /** How long one acquire attempt waits for the lock before {@link LockTimeoutException}. */
  public Duration acquireTimeout() {
    return acquireTimeout;
  }

  /** How many callers may wait at once; one more gets {@link TooManyWaitersException}. */
  public int maxWaiters() {
    return maxWaiters;
  }

  /** Attempts of the retry policy around acquire (1 = no retry). */
  public int retryAttempts() {
    return retryAttempts;
  }

  public Duration retryBackoff() {
    return retryBackoff;
  }

  public Duration retryMaxBackoff() {
    return retryMaxBackoff;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LockSettings s && leaseDuration.equals(s.leaseDuration)
        && heartbeatInterval.equals(s.heartbeatInterval) && acquireTimeout.equals(s.acquireTimeout)
        && maxWaiters == s.maxWaiters && retryAttempts == s.retryAttempts
        && retryBackoff.equals(s.retryBackoff) && retryMaxBackoff.equals(s.retryMaxBackoff);
  }

  @Override
  public int hashCode() {
    return Objects.hash(leaseDuration, heartbeatInterval, acquireTimeout, maxWaiters, retryAttempts,
        retryBackoff, retryMaxBackoff);
  }

  @Override
  public String toString() {
    return "LockSettings{lease=" + leaseDuration + ", heartbeat=" + heartbeatInterval
        + ", acquireTimeout=" + acquireTimeout + ", maxWaiters=" + maxWaiters
        + ", retryAttempts=" + retryAttempts + ", backoff=" + retryBackoff + ".." + retryMaxBackoff + "}";
  }

  /** Defaults: 60 s lease, heartbeat a third of it, 5 min acquire timeout, 20 waiters, 5 attempts. */
  public static final class Builder {
    private Duration leaseDuration = Duration.ofSeconds(60);
    private Duration heartbeatInterval;
    private Duration acquireTimeout = Duration.ofMinutes(5);
    private int maxWaiters = 20;
    private int retryAttempts = 5;
    private Duration retryBackoff = Duration.ofMillis(500);
    private Duration retryMaxBackoff = Duration.ofSeconds(30);

    public Builder leaseDuration(Duration d) {
      this.leaseDuration = checkNotNull(d, "lease duration");
      return this;
    }

    /** Defaults to a third of the lease. */
    public Builder heartbeatInterval(Duration d) {
      this.heartbeatInterval = checkNotNull(d, "heartbeat interval");
      return this;
    }

    public Builder acquireTimeout(Duration d) {
      this.acquireTimeout = checkNotNull(d, "acquire timeout");
      return this;
    }

    public Builder maxWaiters(int n) {
      this.maxWaiters = n;
      return this;
    }

    public Builder retryAttempts(int n) {
      this.retryAttempts = n;
      return this;
    }

    public Builder retryBackoff(Duration initial, Duration max) {
      this.retryBackoff = checkNotNull(initial, "retry backoff");
      this.retryMaxBackoff = checkNotNull(max, "retry max backoff");
      return this;
    }

    public LockSettings build() {
      return new LockSettings(this);
    }
  }
}
