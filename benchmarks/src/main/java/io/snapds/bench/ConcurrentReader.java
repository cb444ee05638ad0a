package io.snapds.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A reader thread that keeps reading a sample of keys spread over the whole key range while the
 * data is replaced, and counts what it saw.
 */
final class ConcurrentReader implements AutoCloseable {
  static final int SAMPLE = 100;

  private final ReplaceStrategy strategy;
  private final List<byte[]> keys;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread thread;
  private volatile Tally tally = new Tally(0, 0, 0, 0, 0, 0);

  /** Counts of reads by kind; see {@link ReadSample}. {@code errors}: the read failed. */
  record Tally(long reads, long complete, long torn, long partial, long empty, long errors) {
    Tally plus(ReadSample s) {
      return new Tally(reads + 1, complete + (s.complete() ? 1 : 0), torn + (s.torn() ? 1 : 0),
          partial + (s.partial() ? 1 : 0), empty + (s.empty() ? 1 : 0), errors);
    }

    Tally error() {
      return new Tally(reads + 1, complete, torn, partial, empty, errors + 1);
    }

    long bad() {
      return reads - complete;
    }
  }

  ConcurrentReader(ReplaceStrategy strategy, long rows) {
    this.strategy = strategy;
    this.keys = new ArrayList<>(SAMPLE);
    for (int i = 0; i < SAMPLE; i++) {
      keys.add(RowData.key(i * rows / SAMPLE + (rows / SAMPLE) / 2));
    }
    this.thread = new Thread(this::loop, "concurrent-reader");
    thread.setDaemon(true);
  }

  ConcurrentReader start() {
    thread.start();
    return this;
  }

  private void loop() {
    while (!stop.get()) {
      try {
        tally = tally.plus(strategy.read(keys));
      } catch (Exception e) {
        tally = tally.error();
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Stops reading and returns the counts. */
  Tally finish() throws InterruptedException {
    stop.set(true);
    thread.join();
    return tally;
  }

  @Override
  public void close() throws InterruptedException {
    finish();
  }
}
