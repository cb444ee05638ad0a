package io.snapds.bench;

import io.snapds.dataset.testing.MiniCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs the benchmark suite on an HBase mini cluster in this JVM and writes the results into the
 * generated region of {@code docs/benchmarks.md} (charts next to it) and into
 * {@code target/bench-results.md}.
 * <pre>
 * BenchmarkMain --scale full|smoke --docs DIR [--only 1,2,...]
 * </pre>
 * Start it with {@code benchmarks/run}.
 */
public final class BenchmarkMain {
  static final String COMMAND = "benchmarks/run";

  private BenchmarkMain() {}

  static Map<String, Benchmark> suite() {
    Map<String, Benchmark> all = new LinkedHashMap<>();
    all.put("write", new WriteBenchmark());
    all.put("read", new ReadBenchmark());
    all.put("replace", new ReplaceBenchmark());
    all.put("cleanup", new CleanupBenchmark());
    all.put("mapreduce", new MapReduceBenchmark());
    all.put("shared", new SharedBuildBenchmark());
    all.put("metadata", new MetadataCostBenchmark());
    all.put("cli", new CliBenchmark());
    all.put("mrcommit", new MapReduceCommitBenchmark());
    all.put("diff", new DiffBenchmark());
    all.put("group", new PublishGroupBenchmark());
    // last: it starts two more region servers and stops them again, which moves every region
    all.put("presplit", new PresplitBenchmark());
    return all;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = options(args);
    Scale scale = Scale.named(opts.getOrDefault("scale", "full"));
    Path docs = Path.of(opts.getOrDefault("docs", "docs")).toAbsolutePath().normalize();
    Set<String> only = opts.getOrDefault("only", "all").equals("all") ? suite().keySet()
        : Set.of(opts.get("only").split(","));
    for (String name : only) {
      if (!suite().containsKey(name)) {
        throw new IllegalArgumentException("no benchmark named '" + name + "'; there are " + suite().keySet());
      }
    }
    Path work = Path.of("").toAbsolutePath().resolve("bench-work");
    // only a complete run at full scale writes docs/; the others' charts go to the work directory
    boolean complete = only.equals(suite().keySet()) && scale == Scale.FULL;
    Path charts = complete ? docs : work.resolve("charts");
    Files.createDirectories(work);
    Files.createDirectories(charts);

    Instant started = Instant.now();
    String loadBefore = Machine.loadAverage();
    System.out.println("benchmarks: scale " + scale.name() + ", load average " + loadBefore + ", starting the mini cluster");
    MiniCluster cluster = MiniCluster.get();
    BenchContext ctx = new BenchContext(cluster, scale, charts, work);
    List<Section> sections = new ArrayList<>();
    for (Map.Entry<String, Benchmark> b : suite().entrySet()) {
      if (!only.contains(b.getKey())) {
        continue;
      }
      Instant t = Instant.now();
      System.out.println("benchmark " + b.getKey() + ": " + b.getValue().title());
      Section s = b.getValue().run(ctx);
      sections.add(s);
      System.out.println(s.render());
      System.out.println("benchmark " + b.getKey() + " took " + Duration.between(t, Instant.now()).toSeconds() + " s");
    }
    Duration took = Duration.between(started, Instant.now());
    String onlyNamed = only.equals(suite().keySet()) ? "all" : String.join(",", only.stream().sorted().toList());
    String generated = Report.render(scale, onlyNamed, sections, started, took, loadBefore, Machine.loadAverage(),
        charts);
    Files.writeString(Path.of("").toAbsolutePath().resolve("bench-results.md"), generated, StandardCharsets.UTF_8);
    if (complete) {
      Path page = docs.resolve("benchmarks.md");
      String before = Files.exists(page) ? Files.readString(page) : "# Benchmarks\n";
      Files.writeString(page, MarkdownRegion.replace(before, generated), StandardCharsets.UTF_8);
      System.out.println("wrote " + page);
    } else {
      System.out.println("not a complete run at full scale: docs/benchmarks.md left as it was");
    }
    System.out.println("benchmarks done in " + took.truncatedTo(ChronoUnit.SECONDS) + "; results in "
        + Path.of("").toAbsolutePath().resolve("bench-results.md"));
    System.out.flush();
    // the mini cluster's non-daemon threads would keep the JVM alive, and stopping it in a
    // shutdown hook only prints errors: the results are written, so stop here
    Runtime.getRuntime().halt(0);
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("usage: BenchmarkMain --scale full|smoke --docs DIR [--only a,b]; bad "
            + "argument '" + args[i] + "'");
      }
      opts.put(args[i].substring(2), args[++i]);
    }
    return opts;
  }
}
