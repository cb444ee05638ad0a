package io.snapds.cli.output;

import java.io.PrintWriter;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A command's progress line on stderr, throttled by time: on a terminal one line that rewrites
 * itself at most twice a second; otherwise ({@code --progress} into a file or a pipe) a line of its
 * own at most every 5 s. {@code snapds load}'s and {@code snapds diff}'s progress print through it
 * and say only what the line reads.
 */
public final class ProgressLine {
  static final long TERMINAL_INTERVAL_NANOS = 500_000_000L;
  static final long FILE_INTERVAL_NANOS = 5_000_000_000L;

  private final PrintWriter err;
  private final boolean terminal;
  private final LongSupplier nanoTime;
  private final long interval;
  private long lastPrint;
  private String printed;

  /** @param nanoTime the clock that throttles printing ({@code System::nanoTime}) */
  public ProgressLine(PrintWriter err, boolean terminal, LongSupplier nanoTime) {
    this.err = err;
    this.terminal = terminal;
    this.nanoTime = nanoTime;
    this.interval = terminal ? TERMINAL_INTERVAL_NANOS : FILE_INTERVAL_NANOS;
    this.lastPrint = nanoTime.getAsLong();
  }

  /** Prints the line if the interval has passed since the last one; {@code text} is asked for only then. */
  public void update(Supplier<String> text) {
    long now = nanoTime.getAsLong();
    if (now - lastPrint >= interval) {
      lastPrint = now;
      print(text.get());
    }
  }

  /** Prints the final line unless it is on screen already, and ends the line on a terminal. */
  public void finish(String text) {
    if (!text.equals(printed)) {
      print(text);
    }
    if (terminal) {
      err.println();
    }
    err.flush();
  }

  private void print(String text) {
    printed = text;
    if (terminal) {
      err.print("\r" + text);
    } else {
      err.println(text);
    }
    err.flush();
  }
}
