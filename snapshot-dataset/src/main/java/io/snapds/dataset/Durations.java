package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import java.time.Duration;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Durations users configure (leases, time-to-live of pins, retention ages): the one way they are
 * written as text ({@link #parse}: the command line's options, the CDAP plugins' properties) and
 * the one check of their range ({@link #checkPositive}: positive, at least a millisecond, and at
 * most {@link #MAX}, so that adding one to a clock reading or turning it into milliseconds can
 * never overflow with an ArithmeticException).
 */
@InterfaceAudience.Public
public final class Durations {
  /** A number and a unit: {@code 500ms}, {@code 90s}, {@code 15m}, {@code 12h}, {@code 7d}. */
  private static final java.util.regex.Pattern SHORT =
      java.util.regex.Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)", java.util.regex.Pattern.CASE_INSENSITIVE);
  /** The longest duration accepted anywhere: 100 years. */
  public static final Duration MAX = Duration.ofDays(36_500);

  private Durations() {}

  /**
   * A duration as users write one: a number and a unit ({@code 500ms}, {@code 90s}, {@code 15m},
   * {@code 12h}, {@code 7d}; case and a space between them do not matter) or ISO-8601
   * ({@code PT1H}, {@code P7D}). Not range-checked: see {@link #checkPositive}.
   *
   * @throws IllegalArgumentException naming {@code text}, if it is neither
   */
  public static Duration parse(String text) {
    String t = text == null ? "" : text.trim();
    java.util.regex.Matcher m = SHORT.matcher(t);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    try {
      return Duration.parse(t);
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("invalid duration '" + text + "': use 90s, 15m, 12h, 7d or PT1H");
    }
  }

  /**
   * @return {@code d}
   * @throws IllegalArgumentException naming {@code what} and the value, if it is null, shorter
   *     than a millisecond, or longer than {@link #MAX}
   */
  @InterfaceAudience.Private
  public static Duration checkPositive(Duration d, String what) {
    checkArgument(d != null && !d.isNegative() && (d.compareTo(MAX) > 0 || d.toMillis() > 0),
        "%s must be > 0, got %s", what, d);
    checkArgument(d.compareTo(MAX) <= 0, "%s must be at most %s (100 years), got %s", what, MAX, d);
    return d;
  }
}
