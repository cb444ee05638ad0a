package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import java.time.Duration;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The one check for durations users configure (leases, time-to-live of pins, retention ages):
 * positive, at least a millisecond, and at most {@link #MAX}, so that adding one to a clock
 * reading or turning it into milliseconds can never overflow with an ArithmeticException.
 */
@InterfaceAudience.Private
public final class Durations {
  /** The longest duration accepted anywhere: 100 years. */
  public static final Duration MAX = Duration.ofDays(36_500);

  private Durations() {}

  /**
   * @return {@code d}
   * @throws IllegalArgumentException naming {@code what} and the value, if it is null, shorter
   *     than a millisecond, or longer than {@link #MAX}
   */
  public static Duration checkPositive(Duration d, String what) {
    checkArgument(d != null && !d.isNegative() && (d.compareTo(MAX) > 0 || d.toMillis() > 0),
        "%s must be > 0, got %s", what, d);
    checkArgument(d.compareTo(MAX) <= 0, "%s must be at most %s (100 years), got %s", what, MAX, d);
    return d;
  }
}
