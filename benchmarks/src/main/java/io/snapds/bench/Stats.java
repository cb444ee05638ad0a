package io.snapds.bench;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Arrays;
import java.util.List;

/** Medians of repeated measurements. */
final class Stats {
  private Stats() {}

  /** The median; for an even count the mean of the middle two. */
  static double median(List<Double> values) {
    checkArgument(values != null && !values.isEmpty(), "median of no values");
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }
}
