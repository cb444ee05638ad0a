package io.snapds.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The report's arithmetic and text handling; no cluster. */
class HarnessTest {
  @Test
  void medianOfOddAndEvenCounts() {
    assertEquals(3.0, Stats.median(List.of(5.0, 1.0, 3.0)));
    assertEquals(2.5, Stats.median(List.of(4.0, 1.0, 2.0, 3.0)));
    assertEquals(7.0, Stats.median(List.of(7.0)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Stats.median(List.of()));
    assertEquals("median of no values", e.getMessage());
  }

  @Test
  void thePrefixScanReadsATenthOrLessOfAnyScale() {
    assertEquals(10_000, ReadBenchmark.prefixRows(100_000));
    assertEquals("k001", org.apache.hadoop.hbase.util.Bytes.toString(ReadBenchmark.prefix(10_000)));
    // the smoke scale's 5,000 rows: a prefix of 100 rows that exist (k0000100 .. k0000199)
    assertEquals(100, ReadBenchmark.prefixRows(5_000));
    assertEquals("k00001", org.apache.hadoop.hbase.util.Bytes.toString(ReadBenchmark.prefix(100)));
    assertEquals(1, ReadBenchmark.prefixRows(5));
  }

  @Test
  void theReportNamesTheHeapAndEveryOtherSettingThatDiffersFromItsDefault() {
    assertEquals("benchmarks/run", Report.command("full", "all", null, null));
    assertEquals("benchmarks/run \"-Dbench.heap=-Xmx6g\"", Report.command("full", "all", "-Xmx6g", null));
    assertEquals("benchmarks/run \"-Dbench.heap=-Xmx8g\" -Dbench.metadata.max=10000 -Dbench.scale=smoke"
        + " -Dbench.only=cli,read", Report.command("smoke", "cli,read", "-Xmx8g", "10000"));
  }

  @Test
  void ratioAgainstTarget() {
    Ratio r = Ratio.of("write", new Measured("rows/s", List.of(80.0, 90.0, 85.0)),
        new Measured("rows/s", List.of(100.0)), 0.9);
    assertEquals(0.85, r.value(), 1e-9);
    assertFalse(r.meetsTarget());
    assertTrue(r.verdict().contains("missed"));
    assertTrue(new Ratio("x", 0.1, Double.NaN).meetsTarget(), "no target, nothing to miss");
    Section s = new Section("t").ratio(r);
    assertEquals(List.of("write: 0.85x, target 0.90x"), s.misses());
  }

  @Test
  void regionIsAppendedThenReplacedKeepingTheProse() {
    String page = "# Benchmarks\n\nprose before\n";
    String first = MarkdownRegion.replace(page, "table one");
    assertTrue(first.startsWith(page));
    assertTrue(first.contains(MarkdownRegion.BEGIN + "\ntable one\n" + MarkdownRegion.END));
    String withAfter = first + "\nprose after\n";
    String second = MarkdownRegion.replace(withAfter, "table two");
    assertFalse(second.contains("table one"));
    assertTrue(second.contains("table two"));
    assertTrue(second.startsWith(page));
    assertTrue(second.endsWith("\nprose after\n"));
  }

  @Test
  void brokenRegionIsRefused() {
    String broken = "x\n" + MarkdownRegion.END + "\n" + MarkdownRegion.BEGIN + "\n";
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MarkdownRegion.replace(broken, "t"));
    assertTrue(e.getMessage().startsWith("page has a broken results region"), e.getMessage());
  }

  @Test
  void tableRendersAndChecksWidth() {
    MarkdownTable t = new MarkdownTable("a", "b").row("1", "x|y");
    assertEquals("| a | b |\n| --- | --- |\n| 1 | x\\|y |\n", t.render());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.row("only one"));
    assertTrue(e.getMessage().startsWith("row has 1 cells, the table 2 columns"), e.getMessage());
  }

  @Test
  void readSamplesAreClassified() {
    assertTrue(new ReadSample(100, 100, Set.of(3)).complete());
    ReadSample torn = new ReadSample(100, 100, Set.of(3, 4));
    assertTrue(torn.torn());
    assertFalse(torn.complete());
    assertTrue(new ReadSample(100, 40, Set.of(4)).partial());
    assertTrue(new ReadSample(100, 0, Set.of()).empty());
  }

  @Test
  void valuesCarryTheirVersionAndHaveTheAgreedSize() {
    byte[] v = RowData.value(7, 123_456, 9);
    assertEquals(RowData.VALUE_BYTES, v.length);
    assertEquals(7, RowData.label(v));
    assertEquals("k0000042", new String(RowData.key(42)));
    assertEquals(RowData.COLUMNS, RowData.put(1, 5).size());
  }

  @Test
  void aShortReadIsRepeatedWithinOneRepetitionAndEveryRowCounts() throws Exception {
    int[] calls = {0};
    double rate = ReadBenchmark.rate(() -> {
      calls[0]++;
      return 10;
    });
    assertTrue(calls[0] >= 2, "a read far shorter than a repetition ran " + calls[0] + " time(s)");
    // the repetition lasted at least MIN_REPETITION_NANOS, so the rate is at most the rows over it
    double upper = calls[0] * 10 / (ReadBenchmark.MIN_REPETITION_NANOS / 1e9);
    assertTrue(rate > 0 && rate <= upper, rate + " rows/s from " + calls[0] * 10 + " rows");
    assertThrows(IllegalStateException.class, () -> ReadBenchmark.rate(() -> 0));
  }

  @Test
  void theMedianIntervalIsTheOrderStatisticsWithNinetyFivePercentCoverage() {
    // 9 values: P(B <= 1) = 10/512, so [x(2), x(8)] covers 96%; [x(3), x(7)] only 82%
    double[] nine = Stats.medianInterval(List.of(5.0, 9.0, 1.0, 8.0, 2.0, 7.0, 3.0, 6.0, 4.0));
    assertEquals(2, nine[0]);
    assertEquals(8, nine[1]);
    assertEquals(1 - 20.0 / 512, nine[2], 1e-12);
    // 5 values: even [min, max] covers only 94%, which is the best there is, and says so
    double[] five = Stats.medianInterval(List.of(3.0, 1.0, 5.0, 2.0, 4.0));
    assertArrayEquals(new double[] {1, 5, 1 - 2.0 / 32}, five, 1e-12);
    // 20 values: [x(6), x(15)] covers 95.9%, [x(7), x(14)] 88.5%
    List<Double> twenty = new java.util.ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      twenty.add((double) i);
    }
    double[] t = Stats.medianInterval(twenty);
    assertEquals(6, t[0]);
    assertEquals(15, t[1]);
    assertEquals(10.0 / 512, Stats.binomialCdf(9, 1), 1e-12);
  }

  @Test
  void aPairedRatioCancelsALoadChangeThatTheRatioOfMediansDoesNot() {
    // ours is 0.97x of raw in every pair but the fifth, where the machine got 30% faster between
    // the two halves: ours' median falls in the slow part of the run, raw's in the fast part
    Measured ours = new Measured("rows/s", List.of(97.0, 97.0, 97.0, 97.0, 97.0, 126.1, 126.1, 126.1, 126.1));
    Measured raw = new Measured("rows/s", List.of(100.0, 100.0, 100.0, 100.0, 130.0, 130.0, 130.0, 130.0, 130.0));
    assertEquals(97.0 / 130, Ratio.of("x", ours, raw, 0.95).value(), 1e-9);
    Ratio paired = Ratio.paired("x", ours, raw, 0.95);
    assertEquals(0.97, paired.value(), 1e-9);
    assertTrue(paired.meetsTarget());
    String spread = Spread.paired(ours, raw, paired);
    assertTrue(spread.endsWith("median 96%: 0.97x-0.97x (above 0.95x)"), spread);
    assertThrows(IllegalArgumentException.class,
        () -> Ratio.paired("x", ours, new Measured("rows/s", List.of(1.0)), 0.95));
  }

  @Test
  void aPairedSpreadSaysWhetherItsIntervalHoldsTheTarget() {
    Measured raw = new Measured("rows/s", List.of(100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0));
    Measured holds = new Measured("rows/s", List.of(90.0, 93.0, 94.0, 95.0, 96.0, 97.0, 98.0, 99.0, 100.0));
    assertTrue(Spread.paired(holds, raw, Ratio.paired("x", holds, raw, 0.95)).endsWith("0.93x-0.99x (holds 0.95x)"),
        Spread.paired(holds, raw, Ratio.paired("x", holds, raw, 0.95)));
    Measured below = new Measured("rows/s", List.of(80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 99.0));
    assertTrue(Spread.paired(below, raw, Ratio.paired("x", below, raw, 0.95)).endsWith("(below 0.95x)"));
    assertFalse(Spread.paired(below, raw, Ratio.paired("x", below, raw, Double.NaN)).contains("("),
        "no target, no verdict");
  }

  @Test
  void aRepetitionCountsTheCpuOfTheThreadThatReads() throws Exception {
    ReadBenchmark.Rep rep = ReadBenchmark.measure(() -> {
      long x = 0;
      for (int i = 0; i < 1_000_000; i++) {
        x += Long.numberOfTrailingZeros(i * 31L + x);
      }
      return x == 42 ? 2 : 1;
    });
    assertTrue(rep.rate() > 0);
    assertTrue(rep.cpuNanosPerRow().get(CpuMeter.PROCESS) > 0, rep.toString());
    if (CpuMeter.supported()) {
      // surefire runs the test on the JVM's main thread, a "client" thread for the benchmark
      assertTrue(rep.cpuNanosPerRow().getOrDefault(Profile.CLIENT, 0.0) > 0, rep.toString());
    }
  }

  @Test
  void formats() {
    assertEquals("100k", Format.rows(100_000));
    assertEquals("1M", Format.rows(1_000_000));
    assertEquals("12,346", Format.number(12_345.6));
    assertEquals("0.95x", Format.ratio(0.949));
  }
}
