package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Which committed snapshots stay readable: the newest {@code retainLast} ones, and (if set) also
 * any younger than {@code maxAge}. The current snapshot and tagged snapshots are always kept.
 * A snapshot goes only when both rules let it go.
 */
public final class RetentionPolicy {
  public static final RetentionPolicy DEFAULT = new RetentionPolicy(3, null);

  private final int retainLast;
  private final Duration maxAge;

  private RetentionPolicy(int retainLast, Duration maxAge) {
    this.retainLast = retainLast;
    this.maxAge = maxAge;
  }

  /** @throws IllegalArgumentException if {@code retainLast < 1} */
  public static RetentionPolicy retainLast(int retainLast) {
    checkArgument(retainLast >= 1, "retainLast must be >= 1, got %s", retainLast);
    return new RetentionPolicy(retainLast, null);
  }

  /**
   * Keeps, beside the newest {@code retainLast}, every snapshot committed less than
   * {@code maxAge} ago.
   *
   * @throws IllegalArgumentException if {@code maxAge} is zero or negative
   */
  public RetentionPolicy withMaxAge(Duration maxAge) {
    checkNotNull(maxAge, "maxAge must not be null");
    checkArgument(!maxAge.isNegative() && !maxAge.isZero(), "maxAge must be > 0, got %s", maxAge);
    checkArgument(maxAge.compareTo(Durations.MAX) <= 0, "maxAge must be at most %s (100 years), got %s",
        Durations.MAX, maxAge);
    return new RetentionPolicy(retainLast, maxAge);
  }

  public int retainLast() {
    return retainLast;
  }

  public Optional<Duration> maxAge() {
    return Optional.ofNullable(maxAge);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RetentionPolicy other && retainLast == other.retainLast
        && Objects.equals(maxAge, other.maxAge);
  }

  @Override
  public int hashCode() {
    return Objects.hash(retainLast, maxAge);
  }

  @Override
  public String toString() {
    return "RetentionPolicy{retainLast=" + retainLast + (maxAge == null ? "" : ", maxAge=" + maxAge) + "}";
  }
}
