package io.snapds.cdap;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as users type them in a plugin property: {@code 90s}, {@code 15m}, {@code 12h}, {@code 7d} or ISO-8601. */
final class Durations {
  private static final Pattern SHORT = Pattern.compile("(\\d{1,9})\\s*([smhd])");

  private Durations() {
  }

  /** @throws IllegalArgumentException naming the text when it is neither form */
  static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    Matcher m = SHORT.matcher(t);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      switch (m.group(2)) {
        case "s":
          return Duration.ofSeconds(n);
        case "m":
          return Duration.ofMinutes(n);
        case "h":
          return Duration.ofHours(n);
        default:
          return Duration.ofDays(n);
      }
    }
    try {
      return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("invalid duration '" + text + "': use a number with s, m, h or d "
          + "(for example 7d), or ISO-8601 (P7D)");
    }
  }
}
