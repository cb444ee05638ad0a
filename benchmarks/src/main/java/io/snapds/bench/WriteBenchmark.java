package io.snapds.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Items 1, 3 and 8: rows/s building a snapshot against raw {@code BufferedMutator} puts to a plain
 * table; how long {@code commit()} (the publish) takes as the snapshot grows; and the writer's
 * peak RSS. Every write runs in a client JVM of its own with a small heap ({@link WriteProbe}).
 */
final class WriteBenchmark implements Benchmark {
  static final double TARGET = 0.9;
  private static final long BUFFER = 4L << 20; // NewSnapshot's default writeBufferBytes

  /**
   * Diagnostics: the raw baseline again, sending one {@code Put} per cell as the snapshot writer
   * does, and one per row with the snapshot key layout. Together they say whether the layout or
   * the per-cell mutations cost the difference.
   */
  private static void perCellBaseline(BenchContext ctx, Section section, Scale.SizedReps size, double ours,
      double raw) throws Exception {
    ClientJvm.Result perCell = ctx.clientJvm().run(ctx.scale().clientHeap(), "rawcells", ctx.name("w_cells"),
        size.rows(), Math.min(3, size.reps()), BUFFER, Optional.empty());
    ClientJvm.Result layout = ctx.clientJvm().run(ctx.scale().clientHeap(), "rawlayout", ctx.name("w_layout"),
        size.rows(), Math.min(3, size.reps()), BUFFER, Optional.empty());
    Measured rate = new Measured("rows/s", perCell.rowsPerSecond());
    Measured layoutRate = new Measured("rows/s", layout.rowsPerSecond());
    section.text("**Why (diagnostic baselines).** The snapshot writer sends one `Put` per cell (`SnapshotRowWriter.put` "
        + "wraps every cell in its own `Put`), the baseline one `Put` per row of " + RowData.COLUMNS + " cells. Two "
        + "more raw writers of " + Format.rows(size.rows()) + " rows: one `Put` per cell (what our writer sends), and "
        + "one `Put` per row with our layout (a fresh dataset's 2-byte key prefix before the key, counter timestamps: what our writer "
        + "would send if it grouped a row's cells):");
    section.table(new MarkdownTable("client", "rows/s", "ratio to raw (one Put per row)")
        .row("raw, one `Put` per row", Format.number(raw), "1.00x")
        .row("raw, one `Put` per row, snapshot key layout and timestamps", layoutRate.describe(),
            Format.ratio(layoutRate.median() / raw))
        .row("raw, one `Put` per cell", rate.describe(), Format.ratio(rate.median() / raw))
        .row("snapshot writer", Format.number(ours), Format.ratio(ours / raw)));
  }

  /**
   * Why the target was missed: one more write of each kind, with JFR in the client JVM and in the
   * mini cluster's JVM (these runs' times are not used).
   */
  private static void profile(BenchContext ctx, Section section, long rows) throws Exception {
    ClientJvm jvm = ctx.clientJvm();
    Path dir = ctx.workDir();
    Path oursClient = dir.resolve("write-snapshot-client.jfr");
    Path rawClient = dir.resolve("write-raw-client.jfr");
    Path oursServerFile = dir.resolve("write-snapshot-server.jfr");
    Path rawServerFile = dir.resolve("write-raw-server.jfr");
    ClientJvm.Result[] runs = new ClientJvm.Result[2];
    Profile.record(oursServerFile, 0, () -> runs[0] = jvm.run(
        ctx.scale().clientHeap(), "snapshot", ctx.name("w_prof"), rows, 1, BUFFER, Optional.of(oursClient)));
    Profile.record(rawServerFile, 0, () -> runs[1] = jvm.run(
        ctx.scale().clientHeap(), "raw", ctx.name("w_prof_raw"), rows, 1, BUFFER, Optional.of(rawClient)));
    // only the timed part of each write: from begin() to commit(), from opening the mutator to closing it
    Profile oursServer = Profile.read(oursServerFile, runs[0].firstStartMs(), runs[0].firstEndMs());
    Profile rawServer = Profile.read(rawServerFile, runs[1].firstStartMs(), runs[1].firstEndMs());
    Profile oursClientProfile = Profile.read(oursClient, runs[0].firstStartMs(), runs[0].firstEndMs());
    Profile rawClientProfile = Profile.read(rawClient, runs[1].firstStartMs(), runs[1].firstEndMs());
    section.text("**Why (profile).** One more " + Format.rows(rows) + "-row write of each kind under JFR (`settings=profile`), "
        + "in the client JVM and in the mini cluster's JVM (both `jdk.jfr.Recording`s), counting only the samples "
        + "taken during the timed part (" + Format.number(runs[0].firstEndMs() - runs[0].firstStartMs()) + " ms for the "
        + "snapshot, " + Format.number(runs[1].firstEndMs() - runs[1].firstStartMs()) + " ms raw, with the profiler on). "
        + "The recordings are in `benchmarks/target/bench-work/write-*.jfr` (open them with `jfr print` or JMC). "
        + "Samples per thread kind, client JVM:");
    section.text(Profile.compare("snapshot writer", oursClientProfile, "raw", rawClientProfile));
    section.text("Mini cluster JVM (the region server) during the same writes:");
    section.text(Profile.compare("snapshot writer", oursServer, "raw", rawServer));
    section.text("Snapshot writer's client JVM:\n\n" + oursClientProfile.summary(12));
    section.text("Region server during the snapshot write:\n\n" + oursServer.summary(12));
  }

  @Override
  public String title() {
    return "1, 3, 8. Write throughput, publish latency, writer memory";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    Scale scale = ctx.scale();
    ClientJvm jvm = ctx.clientJvm();
    String heap = scale.clientHeap();
    Section section = new Section(title());
    section.text("Each write runs in a client JVM of its own (`-Xmx" + heap + "`, G1), connected to the mini cluster "
        + "in the benchmark JVM; every repetition writes into a fresh dataset or table, dropped afterwards. Rows: "
        + RowData.COLUMNS + " columns of " + RowData.VALUE_BYTES + " bytes. Ours: `newSnapshot().begin()`, one "
        + "`writer.put(key, \"d\", qualifier, value)` per cell, `commit()`. Baseline: one `Put` per row with its "
        + RowData.COLUMNS + " cells through a `BufferedMutator`. Both with a " + Format.mib(BUFFER)
        + " write buffer (the writer's default `writeBufferBytes`). The time of a snapshot runs from `begin()` to "
        + "`commit()` returning; the baseline's from opening the mutator to its close.");

    MarkdownTable writes = new MarkdownTable("rows", "snapshot rows/s", "raw BufferedMutator rows/s", "ratio", "spread",
        "target",
        "peak RSS snapshot JVM", "peak RSS raw JVM");
    MarkdownTable publish = new MarkdownTable("snapshot rows", "publish (`commit()` after a flush), ms",
        "publish: ratio to the smallest", "`begin()`, ms");
    List<String> categories = new ArrayList<>();
    List<Double> oursRates = new ArrayList<>();
    List<Double> rawRates = new ArrayList<>();
    List<String> publishCategories = new ArrayList<>();
    List<Double> publishMedians = new ArrayList<>();

    Scale.SizedReps smallest = scale.publishSmallest();
    ClientJvm.Result small = jvm.run(heap, "snapshot", ctx.name("w_pub"), smallest.rows(), smallest.reps(), BUFFER,
        Optional.empty());
    Measured smallPublish = new Measured("ms", small.publishMs());
    publish.row(Format.rows(smallest.rows()), smallPublish.describe(), "1.00x",
        new Measured("ms", small.beginMs()).describe());
    publishCategories.add(Format.rows(smallest.rows()));
    publishMedians.add(smallPublish.median());

    ClientJvm.Result largestOurs = null;
    ClientJvm.Result largestRaw = null;
    for (Scale.SizedReps size : scale.writes()) {
      // ours and raw alternate, one client JVM per repetition, so that a load change hits both sides alike
      ClientJvm.Result ours = null;
      ClientJvm.Result raw = null;
      for (int rep = 0; rep < size.reps(); rep++) {
        ClientJvm.Result o = jvm.run(heap, "snapshot", ctx.name("w_snap"), size.rows(), 1, BUFFER, Optional.empty());
        ClientJvm.Result r = jvm.run(heap, "raw", ctx.name("w_raw"), size.rows(), 1, BUFFER, Optional.empty());
        ours = ours == null ? o : ours.then(o);
        raw = raw == null ? r : raw.then(r);
      }
      Measured oursRate = new Measured("rows/s", ours.rowsPerSecond());
      Measured rawRate = new Measured("rows/s", raw.rowsPerSecond());
      Ratio ratio = Ratio.paired("write " + Format.rows(size.rows()), oursRate, rawRate, TARGET);
      section.ratio(ratio);
      writes.row(Format.rows(size.rows()), oursRate.describe(), rawRate.describe(), Format.ratio(ratio.value()),
          Spread.paired(oursRate, rawRate, ratio), ratio.verdict(), Format.mib(ours.peakRssBytes()), Format.mib(raw.peakRssBytes()));
      categories.add(Format.rows(size.rows()) + " rows");
      oursRates.add(oursRate.median());
      rawRates.add(rawRate.median());

      Measured pub = new Measured("ms", ours.publishMs());
      publish.row(Format.rows(size.rows()), pub.describe(), Format.ratio(pub.median() / smallPublish.median()),
          new Measured("ms", ours.beginMs()).describe());
      publishCategories.add(Format.rows(size.rows()));
      publishMedians.add(pub.median());
      largestOurs = ours;
      largestRaw = raw;
    }
    section.text("**1. Write throughput** (ours and raw alternating, one client JVM per run; the ratio is the "
        + "median of each run pair's ours / raw; the spread is the lowest and highest ratio the runs allow, then the "
        + "confidence interval of the paired median, which says whether the verdict is settled)");
    section.table(writes);
    section.chart(new Charts.Bars("Write throughput (median)", "rows/s", categories)
        .series("snapshot writer", oursRates).series("raw BufferedMutator", rawRates)
        .save(ctx.docs(), "bench-write.png"), "write throughput");

    if (section.ratios().stream().anyMatch(r -> !r.meetsTarget())) {
      perCellBaseline(ctx, section, scale.writes().get(0), oursRates.get(0), rawRates.get(0));
      profile(ctx, section, scale.writes().get(0).rows());
    }

    section.text("**3. Publish latency**: `commit()` after the rows were flushed, i.e. the metadata transaction "
        + "that makes the snapshot current. It must not grow with the snapshot's size. `begin()` (lock, building "
        + "transaction, metadata record) is the other fixed cost of a snapshot, shown for completeness.");
    section.table(publish);
    double largestPublish = publishMedians.get(publishMedians.size() - 1);
    if (largestPublish > 3 * smallPublish.median()) {
      section.miss("publish latency grows with size: " + Format.number(largestPublish) + " ms at the largest size vs "
          + Format.number(smallPublish.median()) + " ms at the smallest");
    }
    section.chart(new Charts.Bars("Publish latency by snapshot size (median)", "ms", publishCategories)
        .series("commit()", publishMedians).save(ctx.docs(), "bench-publish.png"), "publish latency");

    section.text("**8. Writer memory**: the " + Format.rows(largestOurs == null ? 0 : scale.writes().get(
        scale.writes().size() - 1).rows()) + "-row write above, in JVMs with `-Xmx" + heap + "`. Peak RSS is "
        + "`VmHWM` from `/proc/self/status` at the end of the client JVM; peak heap is the sum of the heap pools' "
        + "peak use. The rows are generated while they are written (nothing holds the input), and the writer "
        + "buffers at most `writeBufferBytes` (" + Format.mib(BUFFER) + ") before sending.");
    MarkdownTable memory = new MarkdownTable("client", "rows/s", "peak RSS (VmHWM)", "peak heap used", "max heap");
    memory.row("snapshot writer", Format.number(largestOurs.rowsPerSecond().get(0)), Format.mib(largestOurs.peakRssBytes()),
        Format.mib(largestOurs.peakHeapBytes()), Format.mib(largestOurs.maxHeapBytes()));
    memory.row("raw BufferedMutator", Format.number(largestRaw.rowsPerSecond().get(0)), Format.mib(largestRaw.peakRssBytes()),
        Format.mib(largestRaw.peakHeapBytes()), Format.mib(largestRaw.maxHeapBytes()));
    section.table(memory);
    section.text("The client command line (same for the raw baseline with `raw` instead of `snapshot`):");
    section.code(String.join(" ", largestOurs.command()));
    return section;
  }
}
