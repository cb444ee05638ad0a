package io.snapds.cli.load;

import java.io.PrintWriter;

/**
 * A progress line on stderr while a load runs: rows so far and the rate, at most twice a second
 * (every 5 s into a file).
 * On a terminal the line rewrites itself; otherwise ({@code --progress} into a file) each update
 * is a line of its own. Off, it prints nothing.
 */
public final class ProgressMeter {
  private static final long TERMINAL_INTERVAL_NANOS = 500_000_000L;
  private static final long FILE_INTERVAL_NANOS = 5_000_000_000L;

  private final PrintWriter err;
  private final boolean enabled;
  private final boolean terminal;
  private final long start = System.nanoTime();
  private long lastPrint = start;

  public ProgressMeter(PrintWriter err, boolean enabled, boolean terminal) {
    this.err = err;
    this.enabled = enabled;
    this.terminal = terminal;
  }

  public static ProgressMeter off() {
    return new ProgressMeter(null, false, false);
  }

  public void update(long rows) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    if (now - lastPrint >= (terminal ? TERMINAL_INTERVAL_NANOS : FILE_INTERVAL_NANOS)) {
      lastPrint = now;
      print(rows, now);
    }
  }

  /** The final count; ends the line on a terminal. */
  public void done(long rows) {
    if (!enabled) {
      return;
    }
    print(rows, System.nanoTime());
    if (terminal) {
      err.println();
    }
    err.flush();
  }

  private void print(long rows, long now) {
    double seconds = Math.max(1e-3, (now - start) / 1e9);
    String line = String.format("loading: %,d rows, %,.0f rows/s, %.1f s", rows, rows / seconds, seconds);
    if (terminal) {
      err.print("\r" + line);
    } else {
      err.println(line);
    }
    err.flush();
  }

  public double elapsedSeconds() {
    return (System.nanoTime() - start) / 1e9;
  }
}
