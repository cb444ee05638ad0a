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

  /**
   * A distribution-free confidence interval of the median of {@code values}: the order statistics
   * {@code x(k)} and {@code x(n+1-k)} for the largest {@code k} whose coverage, from the binomial
   * distribution of how many values fall below the median, is at least 95%; the whole range when
   * there are too few values for that (fewer than 9; 9 give the 2nd and the 8th, 96%). Returns
   * {@code {low, high, coverage}}.
   */
  static double[] medianInterval(List<Double> values) {
    checkArgument(values != null && !values.isEmpty(), "interval of no values");
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int n = sorted.length;
    int k = 1;
    // coverage of [x(k), x(n+1-k)] is 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2)
    while (k + 1 <= (n + 1) / 2 && 1 - 2 * binomialCdf(n, k) >= 0.95) {
      k++;
    }
    return new double[] {sorted[k - 1], sorted[n - k], 1 - 2 * binomialCdf(n, k - 1)};
  }

  /** P(B <= m) for B ~ Binomial(n, 1/2). */
  static double binomialCdf(int n, int m) {
    double sum = 0;
    double c = 1; // C(n, i)
    for (int i = 0; i <= m; i++) {
      sum += c;
      c = c * (n - i) / (i + 1);
    }
    return sum / Math.pow(2, n);
  }
}
