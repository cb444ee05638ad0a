package io.snapds.bench;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Item 9: how long a command of the command line takes, wall clock, as a user runs it: the
 * launcher {@code ./snapds} at the repository root in a new process, on the embedded default in a
 * home of its own. The first command starts the home's server (cold); then {@code history} runs
 * {@value #RUNS} times against the running server (warm, the target; the command runs inside the
 * server), alternating with the same in a JVM of its own ({@code SNAPDS_THIN=off}) and {@code --help}
 * in a JVM (the JVM and the command line alone, no HBase), and {@code history} a few times with
 * {@code SNAPDS_SERVER=off} (each command starting HBase and Tephra in its own process, as before
 * the server existed). This benchmark does not use the mini cluster.
 */
final class CliBenchmark implements Benchmark {
  static final double TARGET_SECONDS = 1.5;
  private static final int RUNS = 10;
  private static final int IN_PROCESS_RUNS = 3;

  @Override
  public String title() {
    return "11. Command line latency";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    Path root = repositoryRoot();
    Path home = ctx.workDir().resolve("cli-home");
    deleteRecursively(home);
    Path dir = ctx.workDir().resolve("cli");
    Files.createDirectories(dir);
    Path csv = dir.resolve("prices.csv");
    try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      w.write("sku,price\n");
      for (int i = 0; i < 1_000; i++) {
        w.write("sku-" + i + "," + i + ".99\n");
      }
    }
    Launch cli = new Launch(root, dir, home);
    cli.time(Map.of(), "--version"); // builds the command line if it has to, and the class-sharing archive
    double cold = cli.time(Map.of(), "create", "bench:cli");
    cli.time(Map.of(), "load", "bench:cli", csv.toString(), "--key", "sku");
    List<Double> warm = new ArrayList<>();
    List<Double> help = new ArrayList<>();
    List<Double> jvmClient = new ArrayList<>();
    try {
      cli.time(Map.of(), "history", "bench:cli"); // unmeasured: the first client after the start
      for (int i = 0; i < RUNS; i++) {
        warm.add(cli.time(Map.of(), "history", "bench:cli"));
        help.add(cli.time(Map.of("SNAPDS_THIN", "off"), "--help"));
        jvmClient.add(cli.time(Map.of("SNAPDS_THIN", "off"), "history", "bench:cli"));
      }
    } finally {
      cli.time(Map.of(), "server", "stop");
    }
    List<Double> inProcess = new ArrayList<>();
    for (int i = 0; i < IN_PROCESS_RUNS; i++) {
      inProcess.add(cli.time(Map.of("SNAPDS_SERVER", "off"), "history", "bench:cli"));
    }
    Measured warmM = new Measured("s", warm);
    Measured helpM = new Measured("s", help);
    Measured jvmClientM = new Measured("s", jvmClient);
    Measured inProcessM = new Measured("s", inProcess);
    Section section = new Section(title());
    section.text("`./snapds` in new processes on the embedded default, home `benchmarks/target/bench-work/cli-home` "
        + "(one dataset, one snapshot of 1,000 rows). Wall time from starting the process to its exit, median of the "
        + "runs shown. Target: `history` on a warm server within " + TARGET_SECONDS + " s.");
    boolean met = warmM.median() <= TARGET_SECONDS;
    section.table(new MarkdownTable("command", "seconds", "target")
        .row("`history`, server running (warm; the command runs inside it)", warmM.describe(seconds()),
            met ? "met (<= " + TARGET_SECONDS + " s)" : "**missed** (> " + TARGET_SECONDS + " s)")
        .row("`history`, warm server, `SNAPDS_THIN=off` (a JVM of its own, connecting to the server)",
            jvmClientM.describe(seconds()), "")
        .row("`--help` with `SNAPDS_THIN=off` (a JVM and the command line only)", helpM.describe(seconds()), "")
        .row("`history` with `SNAPDS_SERVER=off` (HBase and Tephra started per command)",
            inProcessM.describe(seconds()), "")
        .row("first command on a cold home (`create`, starts the server)", String.format("%.2f s", cold), ""));
    if (!met) {
      section.miss("command line: history took " + String.format("%.2f", warmM.median()) + " s on a warm server, target "
          + TARGET_SECONDS + " s");
    }
    return section;
  }

  private static java.util.function.DoubleFunction<String> seconds() {
    return v -> String.format("%.2f", v);
  }

  private static Path repositoryRoot() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isExecutable(p.resolve("snapds")) && Files.isDirectory(p.resolve("snapshot-cli"))) {
        return p;
      }
    }
    throw new IllegalStateException("no ./snapds launcher above " + Path.of("").toAbsolutePath());
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Runs the launcher and times it. */
  private record Launch(Path root, Path dir, Path home) {
    double time(Map<String, String> env, String... args) throws IOException, InterruptedException {
      List<String> command = new ArrayList<>(List.of(root.resolve("snapds").toString(), "--home", home.toString()));
      command.addAll(List.of(args));
      if (args[0].startsWith("--")) {
        command = new ArrayList<>(List.of(root.resolve("snapds").toString()));
        command.addAll(List.of(args));
      }
      ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
          .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
      pb.environment().putAll(env);
      long t0 = System.nanoTime();
      Process p = pb.start();
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("snapds " + String.join(" ", args) + " did not end");
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      if (p.exitValue() != 0) {
        throw new IllegalStateException("snapds " + String.join(" ", args) + " failed (exit " + p.exitValue() + "): "
            + Files.readString(dir.resolve("err.txt")));
      }
      return seconds;
    }
  }
}
