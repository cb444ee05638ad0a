package io.snapds.cli;

import io.snapds.cli.output.ProgressLine;
import io.snapds.dataset.DiffSummary;
import java.io.PrintWriter;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@code snapds diff}'s progress on stderr: the rows compared so far (of both snapshots' rows, with
 * a percentage when the diff reads the whole of each) and the changes found, as a
 * {@link ProgressLine} (on a terminal one line that rewrites itself at most twice a second;
 * otherwise a line every 5 s). {@link #done()} prints the final counts.
 */
final class DiffProgress implements Consumer<DiffSummary> {
  /** How often the diff reports (rows read from either side); printing is throttled further by time. */
  static final long EVERY_ROWS = 1_000;

  private final ProgressLine line;
  private final long totalRows;
  private DiffSummary last;

  /**
   * @param totalRows the rows of both snapshots together when the diff reads all of each, else 0
   *     (unknown: no percentage)
   * @param nanoTime the clock that throttles printing ({@code System::nanoTime})
   */
  DiffProgress(PrintWriter err, boolean terminal, long totalRows, LongSupplier nanoTime) {
    this.line = new ProgressLine(err, terminal, nanoTime);
    this.totalRows = totalRows;
  }

  @Override
  public void accept(DiffSummary soFar) {
    last = soFar;
    line.update(() -> text(soFar));
  }

  /** Prints the last counts reported unless they are on screen already, and ends the line on a terminal. */
  void done() {
    if (last != null) {
      line.finish(text(last));
    }
  }

  /** Rows read from either snapshot: each unchanged or changed row was read on both sides. */
  static long rowsCompared(DiffSummary s) {
    return s.added() + s.removed() + 2 * (s.changed() + s.unchanged());
  }

  private String text(DiffSummary s) {
    long rows = rowsCompared(s);
    String of = totalRows > 0
        ? String.format("%d%% (%,d of %,d rows compared)", Math.min(100, rows * 100 / totalRows), rows, totalRows)
        : String.format("%,d rows compared", rows);
    return "diff: " + of + ", " + String.format("%,d changes", s.changes());
  }
}
