package io.snapds.bench;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.ArrayList;
import java.util.List;

/**
 * Ours against the baseline measured in the same run: {@code value} = ours / baseline for rates
 * (higher is better). {@code target} is the lowest acceptable value, or NaN when there is none.
 */
record Ratio(String label, double value, double target) {
  /** The ratio of the two medians: for sides that were not measured in alternation. */
  static Ratio of(String label, Measured ours, Measured baseline, double target) {
    return new Ratio(label, ours.median() / baseline.median(), target);
  }

  /**
   * The median of the paired ratios, {@code ours[i] / baseline[i]}: for sides measured in
   * alternation, where repetition {@code i} of each ran back to back. A change of the machine's
   * load during the run then moves both halves of a pair, and the ratio of each pair cancels it;
   * the ratio of the two medians does not (the medians may come from different parts of the run).
   */
  static Ratio paired(String label, Measured ours, Measured baseline, double target) {
    return new Ratio(label, Stats.median(pairs(ours, baseline)), target);
  }

  /** Each repetition's ours / baseline. */
  static List<Double> pairs(Measured ours, Measured baseline) {
    checkArgument(ours.repetitions() == baseline.repetitions(), "%s repetitions of ours against %s of the baseline",
        ours.repetitions(), baseline.repetitions());
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < ours.repetitions(); i++) {
      ratios.add(ours.values().get(i) / baseline.values().get(i));
    }
    return ratios;
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
