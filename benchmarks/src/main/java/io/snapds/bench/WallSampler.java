package io.snapds.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Wall-clock samples of one thread's stack: while {@link #during} runs, a daemon thread takes the
 * target's stack trace every millisecond and files it under the first {@link Phase} (in the order
 * given) that matches a frame of it, or "other". Unlike JFR's execution samples, a thread waiting
 * for an RPC is sampled too, so the shares say where an operation's latency goes, not only its
 * CPU. Sampling costs the target a safepoint per sample: use it on unmeasured runs.
 */
final class WallSampler implements AutoCloseable {
  /** A part of an operation, recognised by a frame of the stack. */
  record Phase(String label, Predicate<StackTraceElement> frame) {
    /** A phase recognised by a method of a class: {@code SimpleClassName.method}. */
    static Phase method(String label, String... methods) {
      List<String> names = List.of(methods);
      return new Phase(label, f -> names.contains(simpleName(f.getClassName()) + "." + f.getMethodName()));
    }
  }

  static final String OTHER = "other";

  private final Thread target;
  private final List<Phase> phases;
  private final Map<String, Long> counts = new LinkedHashMap<>();
  private final Thread sampler;
  private volatile boolean active;
  private volatile boolean closed;
  private long samples;
  private long runs;
  private double ms;

  interface Work {
    void run() throws Exception;
  }

  WallSampler(Thread target, List<Phase> phases) {
    this.target = target;
    this.phases = List.copyOf(phases);
    phases.forEach(p -> counts.put(p.label(), 0L));
    counts.put(OTHER, 0L);
    this.sampler = new Thread(this::loop, "wall-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  void during(Work work) throws Exception {
    long start = System.nanoTime();
    active = true;
    try {
      work.run();
    } finally {
      active = false;
      synchronized (this) {
        runs++;
        ms += (System.nanoTime() - start) / 1e6;
      }
    }
  }

  private void loop() {
    while (!closed) {
      if (active) {
        StackTraceElement[] stack = target.getStackTrace();
        if (active) {
          record(stack);
        }
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void record(StackTraceElement[] stack) {
    samples++;
    for (Phase p : phases) {
      for (StackTraceElement f : stack) {
        if (p.frame().test(f)) {
          counts.merge(p.label(), 1L, Long::sum);
          return;
        }
      }
    }
    counts.merge(OTHER, 1L, Long::sum);
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    sampler.interrupt();
    sampler.join();
  }

  /**
   * Each phase's share of the samples of either side, and the milliseconds per run it stands for
   * (its share of the mean run), side by side.
   */
  static String compare(String aName, WallSampler a, String bName, WallSampler b) {
    MarkdownTable t = new MarkdownTable("phase", aName, bName);
    t.row("**runs, mean ms, samples**", a.header(), b.header());
    for (String label : a.counts.keySet()) {
      t.row(label, a.cell(label), b.cell(label));
    }
    return t.render();
  }

  private synchronized String header() {
    return runs + " runs, " + Format.number(ms / Math.max(1, runs)) + " ms, " + samples + " samples";
  }

  private synchronized String cell(String label) {
    double share = (double) counts.getOrDefault(label, 0L) / Math.max(1, samples);
    return String.format(Locale.ROOT, "%.0f%%, %s ms", 100 * share, Format.number(share * ms / Math.max(1, runs)));
  }
}
