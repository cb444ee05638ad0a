package io.snapds.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** The generated part of docs/benchmarks.md: the run, a summary of ratios, then each section. */
final class Report {
  private Report() {}

  /**
   * The command that repeats a run: {@code benchmarks/run} with the JVM's heap, and each other
   * setting that differs from its default ({@code full} scale, every benchmark, no metadata cap).
   *
   * @param only the benchmarks run, comma-separated, or {@code all}
   * @param heap the JVM's {@code -Xmx} option, or null when it had none
   * @param metadataCap {@code -Dbench.metadata.max}, or null
   */
  static String command(String scale, String only, String heap, String metadataCap) {
    StringBuilder c = new StringBuilder(BenchmarkMain.COMMAND);
    if (heap != null) {
      c.append(" \"-Dbench.heap=").append(heap).append('"');
    }
    if (metadataCap != null) {
      c.append(" -Dbench.metadata.max=").append(metadataCap);
    }
    if (!scale.equals(Scale.FULL.name())) {
      c.append(" -Dbench.scale=").append(scale);
    }
    if (!only.equals("all")) {
      c.append(" -Dbench.only=").append(only);
    }
    return c.toString();
  }

  /** The {@code -Xmx} option of this JVM (what {@code -Dbench.heap} set), or null. */
  private static String maxHeap() {
    return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-Xmx")).reduce((first, second) -> second).orElse(null);
  }

  static String render(Scale scale, String only, List<Section> sections, Instant started, Duration took,
      String loadBefore, String loadAfter, Path docs) throws IOException {
    StringBuilder out = new StringBuilder();
    out.append("## Results of the last run\n\n");
    out.append("* command: `").append(command(scale.name(), only, maxHeap(), System.getProperty("bench.metadata.max")))
        .append("`\n");
    out.append("* machine: ").append(Machine.describe()).append('\n');
    out.append("* started ").append(started.truncatedTo(ChronoUnit.SECONDS)).append(", took ")
        .append(took.toMinutes()).append(" min ").append(took.toSecondsPart()).append(" s; load average (1/5/15 min) ")
        .append(loadBefore).append(" at the start, ").append(loadAfter).append(" at the end\n\n");

    List<String> labels = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    List<Double> targets = new ArrayList<>();
    MarkdownTable summary = new MarkdownTable("figure", "ours / baseline", "target");
    for (Section s : sections) {
      for (Ratio r : s.ratios()) {
        summary.row(r.label(), Format.ratio(r.value()), r.verdict());
        labels.add(r.label());
        values.add(r.value());
        targets.add(r.hasTarget() ? r.target() : null);
      }
    }
    out.append("### Summary: ratios against the baselines (higher is better; 1.00x = as fast as raw HBase)\n\n");
    out.append(summary.render()).append('\n');
    if (!labels.isEmpty()) {
      String chart = new Charts.Bars("Ours / baseline (median of repetitions)", "ratio", labels)
          .series("ours / baseline", values).series("target", targets).save(docs, "bench-ratios.png");
      out.append("![ratios](").append(chart).append(")\n\n");
    }
    List<String> misses = new ArrayList<>();
    sections.forEach(s -> misses.addAll(s.misses()));
    out.append(misses.isEmpty() ? "Every target was met in this run.\n\n"
        : "Targets missed in this run: " + String.join("; ", misses) + ". The sections below say why.\n\n");
    for (Section s : sections) {
      out.append(s.render());
    }
    return out.toString();
  }
}
