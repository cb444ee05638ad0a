package io.snapds.dataset;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link EventSink} that writes each event as one line of JSON ({@link DatasetEvent#toJson()}):
 * to a {@link PrintStream} ({@link #to}), or to the SLF4J logger {@value #LOGGER} at INFO
 * ({@link #toLog()}), for deployments that collect logs, and for trying the relay out. A batch
 * is acknowledged once its lines were written (and, for a stream, flushed without error).
 */
public final class LogEventSink implements EventSink {
  /** The logger {@link #toLog()} writes to. */
  public static final String LOGGER = "io.snapds.events";

  private final Consumer<String> lines;
  private final PrintStream stream;

  private LogEventSink(Consumer<String> lines, PrintStream stream) {
    this.lines = lines;
    this.stream = stream;
  }

  /** Writes to {@code out}, one line per event; a stream that reports an error fails the batch. */
  public static LogEventSink to(PrintStream out) {
    java.util.Objects.requireNonNull(out, "out");
    return new LogEventSink(out::println, out);
  }

  /** Writes to the SLF4J logger {@value #LOGGER} at INFO. */
  public static LogEventSink toLog() {
    Logger log = LoggerFactory.getLogger(LOGGER);
    return new LogEventSink(log::info, null);
  }

  @Override
  public void deliver(List<DatasetEvent> batch) {
    for (DatasetEvent e : batch) {
      lines.accept(e.toJson());
    }
    if (stream != null && stream.checkError()) { // flushes; PrintStream swallows IOExceptions
      throw new IllegalStateException("writing " + batch.size() + " events to the log stream failed");
    }
  }

  @Override
  public String toString() {
    return stream == null ? "LogEventSink{" + LOGGER + "}" : "LogEventSink{stream}";
  }
}
