package io.snapds.bench;

/** One numbered item of the benchmark suite; its run returns its part of the report. */
interface Benchmark {
  String title();

  Section run(BenchContext context) throws Exception;
}
