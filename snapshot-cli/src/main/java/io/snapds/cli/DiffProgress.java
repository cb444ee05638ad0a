package io.snapds.cli;

import io.snapds.dataset.DiffSummary;
import java.io.PrintWriter;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@code snapds diff}'s progress on stderr: the rows compared so far (of both snapshots' rows, with
 * a percentage when the diff reads the whole of each) and the changes found. On a terminal one line
 * that rewrites itself at most twice a second; otherwise ({@code --progress} into a file or a pipe)
 * a line every 5 s. {@link #done()} prints the final counts.
 */
final class DiffProgress implements Consumer<DiffSummary> {
  /** How often the diff reports (rows read from either side); printing is throttled further by time. */
  static final long EVERY_ROWS = 1_000;
  private static final long TERMINAL_INTERVAL_NANOS = 500_000_000L;
  private static final long FILE_INTERVAL_NANOS = 5_000_000_000L;

  private final PrintWriter err;
  private final boolean terminal;
  private final long totalRows;
  private final LongSupplier nanoTime;
  private long lastPrint;
  private DiffSummary last;
  private DiffSummary printed;

  /**
   * @param totalRows the rows of both snapshots together when the diff reads all of each, else 0
   *     (unknown: no percentage)
   * @param nanoTime the clock that throttles printing ({@code System::nanoTime})
   */
  DiffProgress(PrintWriter err, boolean terminal, long totalRows, LongSupplier nanoTime) {
    this.err = err;
    this.terminal = terminal;
    this.totalRows = totalRows;
    this.nanoTime = nanoTime;
    this.lastPrint = nanoTime.getAsLong();
  }

  @Override
  public void accept(DiffSummary soFar) {
    last = soFar;
    long now = nanoTime.getAsLong();
    if (now - lastPrint >= (terminal ? TERMINAL_INTERVAL_NANOS : FILE_INTERVAL_NANOS)) {
      lastPrint = now;
      print(soFar);
    }
  }

  /** Prints the last counts reported unless they are on screen already, and ends the line on a terminal. */
  void done() {
    if (last == null) {
      return;
    }
    if (last != printed) {
      print(last);
    }
    if (terminal) {
      err.println();
    }
    err.flush();
  }

  /** Rows read from either snapshot: each unchanged or changed row was read on both sides. */
  static long rowsCompared(DiffSummary s) {
    return s.added() + s.removed() + 2 * (s.changed() + s.unchanged());
  }

  private void print(DiffSummary s) {
    printed = s;
    long rows = rowsCompared(s);
    String of = totalRows > 0
        ? String.format("%d%% (%,d of %,d rows compared)", Math.min(100, rows * 100 / totalRows), rows, totalRows)
        : String.format("%,d rows compared", rows);
    String line = "diff: " + of + ", " + String.format("%,d changes", s.changes());
    if (terminal) {
      err.print("\r" + line);
    } else {
      err.println(line);
    }
    err.flush();
  }
}
