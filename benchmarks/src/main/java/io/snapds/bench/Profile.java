package io.snapds.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * JFR execution samples (JDK 17's built-in profiler), summarised for the report: samples by
 * thread kind, the hottest methods by their own samples (top of stack), and the hottest of our
 * own methods including callees.
 */
final class Profile {
  private final Map<String, Long> byThread;
  private final Map<String, Long> self;
  private final Map<String, Long> ours;
  private final long samples;

  private Profile(Map<String, Long> byThread, Map<String, Long> self, Map<String, Long> ours, long samples) {
    this.byThread = byThread;
    this.self = self;
    this.ours = ours;
    this.samples = samples;
  }

  interface Work {
    void run() throws Exception;
  }

  /**
   * Runs {@code work} under a JFR recording of this JVM ({@code profile} settings) into {@code file},
   * again and again until {@code minSeconds} have passed, so that there are samples enough.
   */
  static Profile record(Path file, double minSeconds, Work work) throws Exception {
    try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
      recording.setToDisk(true);
      recording.setDestination(file);
      recording.start();
      long start = System.nanoTime();
      do {
        work.run();
      } while ((System.nanoTime() - start) / 1e9 < minSeconds);
      recording.stop();
    } catch (ParseException e) {
      throw new IllegalStateException("JDK's JFR 'profile' configuration unreadable", e);
    }
    return read(file, 0, Long.MAX_VALUE);
  }

  /**
   * The execution samples of a recording taken between {@code fromMs} and {@code toMs}
   * (milliseconds since the epoch).
   */
  static Profile read(Path file, long fromMs, long toMs) throws IOException {
    Map<String, Long> byThread = new HashMap<>();
    Map<String, Long> self = new HashMap<>();
    Map<String, Long> ours = new HashMap<>();
    long samples = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
        continue;
      }
      long at = e.getStartTime().toEpochMilli();
      if (at < fromMs || at > toMs) {
        continue;
      }
      String thread = e.getThread("sampledThread") == null ? null : e.getThread("sampledThread").getJavaName();
      if (thread == null) {
        continue;
      }
      RecordedStackTrace stack = e.getStackTrace();
      if (stack == null || stack.getFrames().isEmpty()) {
        continue;
      }
      samples++;
      byThread.merge(threadKind(thread), 1L, Long::sum);
      List<RecordedFrame> frames = stack.getFrames();
      self.merge(method(frames.get(0)), 1L, Long::sum);
      Set<String> seen = new HashSet<>();
      for (RecordedFrame f : frames) {
        String m = method(f);
        if (m.startsWith("io.snapds.dataset") && seen.add(m)) {
          ours.merge(m, 1L, Long::sum);
        }
      }
    }
    return new Profile(byThread, self, ours, samples);
  }

  static final String REGION_SERVER = "region server RPC handlers";
  static final String CLIENT = "client (benchmark threads)";
  static final String CLIENT_RPC = "client RPC threads";

  /** Thread names without their numbers: handler=3 and handler=7 are the same kind of thread. */
  static String threadKind(String name) {
    if (name.startsWith("RpcServer") || name.contains("RpcServer.")) {
      return REGION_SERVER;
    }
    if (name.contains("MemStoreFlusher") || name.contains("Compaction") || name.contains("compaction")
        || name.contains("-shortCompactions-") || name.contains("-longCompactions-")) {
      return "memstore flush / compaction";
    }
    if (name.contains("WAL") || name.contains("AsyncFSWAL") || name.contains("DataXceiver") || name.contains("PacketResponder")
        || name.contains("DataStreamer")) {
      return "WAL and HDFS";
    }
    if (name.equals("main") || name.startsWith("concurrent-reader") || name.startsWith("pool-")) {
      return CLIENT;
    }
    if (name.contains("htable-pool") || name.contains("hconnection") || name.contains("RPCClient")
        || name.contains("Netty")) {
      return CLIENT_RPC;
    }
    return "other: " + name.replaceAll("[0-9]+", "N");
  }

  private static String method(RecordedFrame f) {
    return f.getMethod().getType().getName() + "." + f.getMethod().getName();
  }

  long samples() {
    return samples;
  }

  /** Samples per kind of thread, side by side: where the extra time of one side goes. */
  static String compare(String aName, Profile a, String bName, Profile b) {
    Set<String> kinds = new java.util.TreeSet<>(a.byThread.keySet());
    kinds.addAll(b.byThread.keySet());
    MarkdownTable t = new MarkdownTable("threads", aName + " samples", bName + " samples");
    t.row("**all**", Long.toString(a.samples), Long.toString(b.samples));
    kinds.stream().sorted((x, y) -> Long.compare(a.byThread.getOrDefault(y, 0L) + b.byThread.getOrDefault(y, 0L),
        a.byThread.getOrDefault(x, 0L) + b.byThread.getOrDefault(x, 0L))).limit(10)
        .forEach(k -> t.row(k, Long.toString(a.byThread.getOrDefault(k, 0L)), Long.toString(b.byThread.getOrDefault(k, 0L))));
    return t.render();
  }

  /** A markdown summary: the top {@code n} of each list, as shares of all samples. */
  String summary(int n) {
    StringBuilder out = new StringBuilder();
    out.append("JFR execution samples: ").append(samples).append(" (every ~10 ms per running thread)\n\n");
    MarkdownTable threads = new MarkdownTable("threads", "samples", "share");
    top(byThread, 8).forEach((k, v) -> threads.row(k, Long.toString(v), percent(v)));
    out.append(threads.render()).append('\n');
    MarkdownTable hot = new MarkdownTable("hottest methods (own time)", "samples", "share");
    top(self, n).forEach((k, v) -> hot.row("`" + k + "`", Long.toString(v), percent(v)));
    out.append(hot.render()).append('\n');
    if (!ours.isEmpty()) {
      MarkdownTable mine = new MarkdownTable("snapds methods (including callees)", "samples", "share");
      top(ours, n).forEach((k, v) -> mine.row("`" + k + "`", Long.toString(v), percent(v)));
      out.append(mine.render()).append('\n');
    }
    return out.toString();
  }

  private String percent(long v) {
    return samples == 0 ? "" : String.format(java.util.Locale.ROOT, "%.1f%%", 100.0 * v / samples);
  }

  private static Map<String, Long> top(Map<String, Long> counts, int n) {
    return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
  }
}
