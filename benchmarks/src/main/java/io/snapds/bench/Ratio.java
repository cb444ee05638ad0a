package io.snapds.bench;

/**
 * Ours against the baseline measured in the same run: {@code value} = ours / baseline for rates
 * (higher is better). {@code target} is the lowest acceptable value, or NaN when there is none.
 */
record Ratio(String label, double value, double target) {
  static Ratio of(String label, Measured ours, Measured baseline, double target) {
    return new Ratio(label, ours.median() / baseline.median(), target);
  }

  boolean hasTarget() {
    return !Double.isNaN(target);
  }

  boolean meetsTarget() {
    return !hasTarget() || value >= target;
  }

  String verdict() {
    return !hasTarget() ? "" : meetsTarget() ? "met (>= " + Format.ratio(target) + ")" : "**missed** (< " + Format.ratio(target) + ")";
  }
}
