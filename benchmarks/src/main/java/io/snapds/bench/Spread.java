package io.snapds.bench;

import java.util.Collections;

/**
 * The range of ratios that the repetitions of two rates allow: from ours' slowest over the
 * baseline's fastest to ours' fastest over the baseline's slowest. When that range holds the
 * target, the median's verdict (met or missed) is within the noise, and the table says so.
 */
final class Spread {
  private Spread() {}

  static double low(Measured ours, Measured baseline) {
    return Collections.min(ours.values()) / Collections.max(baseline.values());
  }

  static double high(Measured ours, Measured baseline) {
    return Collections.max(ours.values()) / Collections.min(baseline.values());
  }

  /** {@code 0.81x-1.07x}, with {@code (overlaps 0.95x)} when the range holds the target. */
  static String of(Measured ours, Measured baseline, Ratio ratio) {
    double low = low(ours, baseline);
    double high = high(ours, baseline);
    String range = Format.ratio(low) + "-" + Format.ratio(high);
    return ratio.hasTarget() && low < ratio.target() && high >= ratio.target()
        ? range + " (overlaps " + Format.ratio(ratio.target()) + ")" : range;
  }
}
