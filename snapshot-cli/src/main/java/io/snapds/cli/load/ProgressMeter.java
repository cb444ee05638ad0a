package io.snapds.cli.load;

import io.snapds.cli.output.ProgressLine;
import java.io.PrintWriter;

/**
 * A progress line on stderr while a load runs: rows so far and the rate, as a {@link ProgressLine}
 * (at most twice a second on a terminal, every 5 s into a file). Off, it prints nothing.
 */
public final class ProgressMeter {
  private final ProgressLine line;
  private final long start = System.nanoTime();

  public ProgressMeter(PrintWriter err, boolean enabled, boolean terminal) {
    this.line = enabled ? new ProgressLine(err, terminal, System::nanoTime) : null;
  }

  public static ProgressMeter off() {
    return new ProgressMeter(null, false, false);
  }

  public void update(long rows) {
    if (line != null) {
      line.update(() -> text(rows));
    }
  }

  /** The final count; ends the line on a terminal. */
  public void done(long rows) {
    if (line != null) {
      line.finish(text(rows));
    }
  }

  private String text(long rows) {
    double seconds = Math.max(1e-3, elapsedSeconds());
    return String.format("loading: %,d rows, %,.0f rows/s, %.1f s", rows, rows / seconds, seconds);
  }

  public double elapsedSeconds() {
    return (System.nanoTime() - start) / 1e9;
  }
}
