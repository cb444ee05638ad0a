package io.snapds.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@link WriteProbe} in a JVM of its own with a given heap, on this JVM's classpath and
 * module flags, pointed at the mini cluster's ZooKeeper; returns what it measured.
 */
final class ClientJvm {
  private final String zkQuorum;
  private final String zkPort;
  private final Path workDir;

  ClientJvm(String zkQuorum, String zkPort, Path workDir) {
    this.zkQuorum = zkQuorum;
    this.zkPort = zkPort;
    this.workDir = workDir;
  }

  /** What one probe process measured. */
  record Result(List<Double> rowsPerSecond, List<Double> beginMs, List<Double> publishMs, long peakRssBytes,
      long peakHeapBytes, long maxHeapBytes, List<String> command, long firstStartMs, long firstEndMs) {
    /** This result's runs followed by {@code later}'s; peaks are the larger of the two. */
    Result then(Result later) {
      return new Result(concat(rowsPerSecond, later.rowsPerSecond), concat(beginMs, later.beginMs),
          concat(publishMs, later.publishMs), Math.max(peakRssBytes, later.peakRssBytes),
          Math.max(peakHeapBytes, later.peakHeapBytes), maxHeapBytes, command, firstStartMs, firstEndMs);
    }

    private static List<Double> concat(List<Double> a, List<Double> b) {
      List<Double> out = new ArrayList<>(a);
      out.addAll(b);
      return List.copyOf(out);
    }
  }

  /**
   * @param jfr when present, the probe records a JFR profile into this file
   */
  Result run(String heap, String mode, String name, long rows, int reps, long bufferBytes, Optional<Path> jfr)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + heap);
    cmd.add("-XX:+UseG1GC");
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-") || arg.startsWith("-Dio.netty") || arg.startsWith("-Dorg.apache.hbase.thirdparty")
          || arg.startsWith("-Dlog4j2.")) {
        cmd.add(arg);
      }
    }
    jfr.ifPresent(f -> cmd.add("-D" + WriteProbe.JFR_PROPERTY + "=" + f));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(WriteProbe.class.getName());
    Path txDir = Files.createTempDirectory(workDir, "tx-" + name);
    cmd.addAll(List.of(mode, name, Long.toString(rows), Integer.toString(reps), Long.toString(bufferBytes),
        zkQuorum, zkPort, txDir.toString()));
    Path log = workDir.resolve("probe-" + name + ".log");
    Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
    List<String> out;
    try (var reader = p.inputReader()) {
      out = reader.lines().toList();
    }
    if (!p.waitFor(60, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("write probe " + name + " failed (exit " + p.exitValue() + "); see " + log
          + "; stdout: " + out);
    }
    List<Double> rates = new ArrayList<>();
    List<Double> begin = new ArrayList<>();
    List<Double> publish = new ArrayList<>();
    long firstStart = 0;
    long firstEnd = 0;
    Map<String, String> memory = Map.of();
    for (String line : out) {
      if (line.startsWith("RESULT ")) {
        Map<String, String> f = fields(line);
        rates.add(Long.parseLong(f.get("rows")) / Double.parseDouble(f.get("seconds")));
        begin.add(Double.parseDouble(f.get("beginMs")));
        publish.add(Double.parseDouble(f.get("publishMs")));
        if (f.get("rep").equals("1")) {
          firstStart = Long.parseLong(f.get("startMs"));
          firstEnd = Long.parseLong(f.get("endMs"));
        }
      } else if (line.startsWith("MEMORY ")) {
        memory = fields(line);
      }
    }
    if (rates.size() != reps || memory.isEmpty()) {
      throw new IllegalStateException("write probe " + name + " printed " + rates.size() + " of " + reps
          + " results; stdout: " + out);
    }
    List<String> shown = new ArrayList<>(cmd);
    shown.set(shown.indexOf("-cp") + 1, "<benchmarks classpath>");
    return new Result(rates, begin, publish, Long.parseLong(memory.get("peakRss")),
        Long.parseLong(memory.get("peakHeap")), Long.parseLong(memory.get("maxHeap")), shown, firstStart, firstEnd);
  }

  private static Map<String, String> fields(String line) {
    Map<String, String> f = new HashMap<>();
    for (String part : line.split("\\s+")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        f.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return f;
  }
}
