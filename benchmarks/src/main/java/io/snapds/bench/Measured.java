package io.snapds.bench;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The repetitions of one measurement (a rate or a duration) and their median. Immutable.
 *
 * @param unit what the values are, e.g. {@code rows/s} or {@code ms}
 */
record Measured(String unit, List<Double> values) {
  Measured {
    checkArgument(values != null && !values.isEmpty(), "a measurement needs at least one value (%s)", unit);
    values = List.copyOf(values);
  }

  double median() {
    return Stats.median(values);
  }

  int repetitions() {
    return values.size();
  }

  /** {@code 1.23 s (10 runs: 1.19 1.31 ...)}, each value in the given format. */
  String describe(java.util.function.DoubleFunction<String> format) {
    return format.apply(median()) + " " + unit + " (" + repetitions() + (repetitions() == 1 ? " run" : " runs")
        + (repetitions() == 1 ? "" : ": " + values.stream().map(v -> format.apply(v)).collect(Collectors.joining(" ")))
        + ")";
  }

  /** {@code 12,345 rows/s (5 runs: 12,001 12,345 ...)} */
  String describe() {
    return Format.number(median()) + " " + unit + " (" + repetitions() + (repetitions() == 1 ? " run" : " runs")
        + (repetitions() == 1 ? "" : ": " + values.stream().map(Format::number).collect(Collectors.joining(" "))) + ")";
  }
}
