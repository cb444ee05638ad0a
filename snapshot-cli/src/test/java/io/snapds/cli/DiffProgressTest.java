package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DiffSummary;
import io.snapds.dataset.SnapshotId;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** diff's progress output, without a cluster: throttled by its clock, a percentage when the total is known. */
class DiffProgressTest {
  private static DiffSummary counts(long added, long removed, long changed, long unchanged) {
    return new DiffSummary(SnapshotId.of(1), SnapshotId.of(2), added, removed, changed, unchanged);
  }

  @Test
  void onATerminalTheLineRewritesItselfAtMostTwiceASecondAndEndsWithTheFinalCounts() {
    StringWriter out = new StringWriter();
    AtomicLong clock = new AtomicLong();
    DiffProgress p = new DiffProgress(new PrintWriter(out), true, 4_000, clock::get);
    clock.set(100_000_000L);
    p.accept(counts(0, 0, 10, 490)); // too soon: not printed
    clock.set(600_000_000L);
    p.accept(counts(10, 0, 10, 985));
    clock.set(700_000_000L);
    p.accept(counts(10, 10, 20, 1_970));
    p.done();
    assertEquals("\rdiff: 50% (2,000 of 4,000 rows compared), 20 changes"
        + "\rdiff: 100% (4,000 of 4,000 rows compared), 40 changes" + System.lineSeparator(), out.toString());
  }

  @Test
  void elsewhereALineEveryFiveSecondsAndNoPercentageWithoutATotal() {
    StringWriter out = new StringWriter();
    AtomicLong clock = new AtomicLong();
    DiffProgress p = new DiffProgress(new PrintWriter(out), false, 0, clock::get);
    clock.set(1_000_000_000L);
    p.accept(counts(1, 0, 0, 0));
    clock.set(5_000_000_000L);
    p.accept(counts(1, 2, 3, 1_000));
    p.done();
    String n = System.lineSeparator();
    assertEquals("diff: 2,009 rows compared, 6 changes" + n, out.toString(), "the last line is not repeated");
  }

  @Test
  void aDiffThatReportedNothingPrintsNothing() {
    StringWriter out = new StringWriter();
    new DiffProgress(new PrintWriter(out), true, 10, () -> 0L).done();
    assertEquals("", out.toString());
  }
}
