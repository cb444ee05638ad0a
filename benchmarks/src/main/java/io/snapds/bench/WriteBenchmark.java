package io.snapds.bench;

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

    MarkdownTable writes = new MarkdownTable("rows", "snapshot rows/s", "raw BufferedMutator rows/s", "ratio", "target",
        "peak RSS snapshot JVM", "peak RSS raw JVM");
    MarkdownTable publish = new MarkdownTable("snapshot rows", "publish (`commit()` after a flush), ms",
        "ratio to the smallest");
    List<String> categories = new ArrayList<>();
    List<Double> oursRates = new ArrayList<>();
    List<Double> rawRates = new ArrayList<>();
    List<String> publishCategories = new ArrayList<>();
    List<Double> publishMedians = new ArrayList<>();

    Scale.SizedReps smallest = scale.publishSmallest();
    ClientJvm.Result small = jvm.run(heap, "snapshot", ctx.name("w_pub"), smallest.rows(), smallest.reps(), BUFFER,
        Optional.empty());
    Measured smallPublish = new Measured("ms", small.publishMs());
    publish.row(Format.rows(smallest.rows()), smallPublish.describe(), "1.00x");
    publishCategories.add(Format.rows(smallest.rows()));
    publishMedians.add(smallPublish.median());

    ClientJvm.Result largestOurs = null;
    ClientJvm.Result largestRaw = null;
    for (Scale.SizedReps size : scale.writes()) {
      ClientJvm.Result ours = jvm.run(heap, "snapshot", ctx.name("w_snap"), size.rows(), size.reps(), BUFFER,
          Optional.empty());
      ClientJvm.Result raw = jvm.run(heap, "raw", ctx.name("w_raw"), size.rows(), size.reps(), BUFFER, Optional.empty());
      Measured oursRate = new Measured("rows/s", ours.rowsPerSecond());
      Measured rawRate = new Measured("rows/s", raw.rowsPerSecond());
      Ratio ratio = Ratio.of("write " + Format.rows(size.rows()) + " rows", oursRate, rawRate, TARGET);
      section.ratio(ratio);
      writes.row(Format.rows(size.rows()), oursRate.describe(), rawRate.describe(), Format.ratio(ratio.value()),
          ratio.verdict(), Format.mib(ours.peakRssBytes()), Format.mib(raw.peakRssBytes()));
      categories.add(Format.rows(size.rows()) + " rows");
      oursRates.add(oursRate.median());
      rawRates.add(rawRate.median());

      Measured pub = new Measured("ms", ours.publishMs());
      publish.row(Format.rows(size.rows()), pub.describe(), Format.ratio(pub.median() / smallPublish.median()));
      publishCategories.add(Format.rows(size.rows()));
      publishMedians.add(pub.median());
      largestOurs = ours;
      largestRaw = raw;
    }
    section.text("**1. Write throughput** (median of the runs shown; the largest size is run "
        + (scale.writes().get(scale.writes().size() - 1).reps() == 1 ? "once, as it takes minutes" : "as shown") + ")");
    section.table(writes);
    section.chart(new Charts.Bars("Write throughput (median)", "rows/s", categories)
        .series("snapshot writer", oursRates).series("raw BufferedMutator", rawRates)
        .save(ctx.docs(), "bench-write.png"), "write throughput");

    section.text("**3. Publish latency**: `commit()` after the rows were flushed, i.e. the metadata transaction "
        + "that makes the snapshot current. It must not grow with the snapshot's size.");
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
