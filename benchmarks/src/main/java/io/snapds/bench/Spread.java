package io.snapds.bench;

import java.util.Collections;

/**
 * The range of ratios that the repetitions of two rates allow: from ours' slowest over the
 * baseline's fastest to ours' fastest over the baseline's slowest. When that range holds the
 * target, the median's verdict (met or missed) is within the noise, and the table says so. For
 * sides measured in alternation, {@link #paired} adds the confidence interval of the paired
 * median, which is what settles a verdict: the min-max range of two noisy sides nearly always
 * holds a target near 1.
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

  /**
   * For a {@link Ratio#paired} ratio: the min-max range as {@link #of}, then the interval of the
   * paired median ({@link Stats#medianInterval}), which says whether the verdict is settled: {@code
   * 0.81x-1.07x (overlaps 0.95x); median 96%: 0.96x-1.01x (above 0.95x)}.
   */
  static String paired(Measured ours, Measured baseline, Ratio ratio) {
    double[] interval = Stats.medianInterval(Ratio.pairs(ours, baseline));
    String text = of(ours, baseline, ratio) + "; median " + Math.round(interval[2] * 100) + "%: "
        + Format.ratio(interval[0]) + "-" + Format.ratio(interval[1]);
    if (!ratio.hasTarget()) {
      return text;
    }
    String target = Format.ratio(ratio.target());
    return text + (interval[0] >= ratio.target() ? " (above " + target + ")"
        : interval[1] < ratio.target() ? " (below " + target + ")" : " (holds " + target + ")");
  }
}
