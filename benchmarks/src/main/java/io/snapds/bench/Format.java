package io.snapds.bench;

import java.util.Locale;

/** Number formatting for the report: thousands separators, sensible precision. */
final class Format {
  private Format() {}

  static String number(double v) {
    double a = Math.abs(v);
    if (a >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2fx", r);
  }

  static String rows(long n) {
    if (n >= 1_000_000 && n % 1_000_000 == 0) {
      return (n / 1_000_000) + "M";
    }
    if (n >= 1_000 && n % 1_000 == 0) {
      return (n / 1_000) + "k";
    }
    return Long.toString(n);
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / 1024.0 / 1024.0);
  }
}
