package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.TransactionContext;

/**
 * Item 9 (issue #11): what a read and a publish cost as the number of publishes ever made grows.
 * One dataset (retain 3, cleanup every 10 publishes, default history horizon) gets small
 * publishes; at each checkpoint the median of {@code startTx + get + finish}, the metadata
 * bytes one {@code startTx} fetched, the median publish and the metadata table's cells.
 */
final class MetadataCostBenchmark implements Benchmark {
  private static final int READ_SAMPLES = 200;
  private static final int PUBLISH_SAMPLES = 50;
  private static final byte[] KEY = Bytes.toBytes("k");

  @Override
  public String title() {
    return "9. Metadata cost against the number of publishes";
  }

  /** Checkpoints: 10, 1,000, 10,000, 100,000 at full scale; {@code -Dbench.metadata.max} caps them. */
  static List<Integer> checkpoints(Scale scale) {
    List<Integer> all = scale == Scale.FULL ? List.of(10, 1_000, 10_000, 100_000) : List.of(10, 1_000, 3_000);
    int max = Integer.getInteger("bench.metadata.max", Integer.MAX_VALUE);
    return all.stream().filter(n -> n <= max).toList();
  }

  private record Step(int publishes, Measured read, double bytesPerStartTx, Measured publish, long cells) {}

  @Override
  public Section run(BenchContext ctx) throws Exception {
    warmUp(ctx);
    SnapshotDataset ds = ctx.createDataset("metacost",
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(3)).build());
    List<Step> steps = new ArrayList<>();
    try {
      int made = 0;
      for (int checkpoint : checkpoints(ctx.scale())) {
        while (made < checkpoint - PUBLISH_SAMPLES) {
          publish(ds, ++made);
        }
        List<Double> publishes = new ArrayList<>();
        while (made < checkpoint) {
          long t = System.nanoTime();
          publish(ds, ++made);
          publishes.add((System.nanoTime() - t) / 1e6);
        }
        steps.add(measure(ctx, ds, checkpoint, new Measured("ms", publishes)));
        System.out.printf("metadata cost after %d publishes: %s%n", checkpoint, steps.get(steps.size() - 1));
      }
    } finally {
      ctx.drop(ds);
    }
    return report(ctx, steps);
  }

  /** Publishes and reads on a throwaway dataset first, so the first step is not a cold JVM. */
  private static void warmUp(BenchContext ctx) throws Exception {
    SnapshotDataset warm = ctx.createDataset("metawarm", DatasetProperties.defaults());
    try {
      for (int i = 1; i <= 100; i++) {
        publish(warm, i);
      }
      measure(ctx, warm, 100, new Measured("ms", List.of(0.0)));
    } finally {
      ctx.drop(warm);
    }
  }

  private static void publish(SnapshotDataset ds, int n) {
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(KEY, "d", Bytes.toBytes("v"), Bytes.toBytes(n));
      w.commit();
    }
    if (n % 10 == 0) {
      ds.cleanup();
    }
  }

  private static Step measure(BenchContext ctx, SnapshotDataset ds, int publishes, Measured publish) throws Exception {
    SnapshotDataset reader = ctx.datasets().open(ds.id());
    List<Double> reads = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i < READ_SAMPLES; i++) {
      TransactionContext tx = new TransactionContext(ctx.cluster().txClient(), reader);
      long t = System.nanoTime();
      long before = reader.metadataBytesRead();
      tx.start();
      bytes += reader.metadataBytesRead() - before;
      if (reader.get(KEY).isEmpty()) {
        throw new IllegalStateException("the current snapshot lost its row after " + publishes + " publishes");
      }
      tx.finish();
      reads.add((System.nanoTime() - t) / 1e6);
    }
    long cells = 0;
    try (Table t = ctx.connection().getTable(ds.id().metaTable());
        ResultScanner s = t.getScanner(new Scan().readAllVersions())) {
      for (Result r : s) {
        cells += r.size();
      }
    }
    return new Step(publishes, new Measured("ms", reads), (double) bytes / READ_SAMPLES, publish, cells);
  }

  private Section report(BenchContext ctx, List<Step> steps) throws Exception {
    Section section = new Section(title());
    section.text("After a warm-up on another dataset (100 publishes, " + READ_SAMPLES + " reads), one dataset "
        + "(retain 3, history horizon 100) gets one-row publishes, with `cleanup()` after "
        + "every 10th. At each checkpoint: the median of " + READ_SAMPLES + " `startTx + get + finish` (a "
        + "`TransactionContext` on a second client), the metadata bytes one `startTx` fetched (every version of "
        + "every cell it read), the median of the last " + PUBLISH_SAMPLES + " publishes (begin + put + commit), "
        + "and the metadata table's cells (all versions). Target (issue #11): the figure after the most "
        + "publishes at most 1.3x the figure after 10, for reads and publishes.");
    Integer max = Integer.getInteger("bench.metadata.max");
    if (max != null) {
      section.text("This run stopped at " + Format.rows(steps.get(steps.size() - 1).publishes()) + " publishes: "
          + "`-Dbench.metadata.max=" + max + "` capped the checkpoints (uncapped, a full-scale run goes to "
          + "100,000, which takes one to two hours on this machine).");
    }
    MarkdownTable table = new MarkdownTable("publishes made", "startTx+get+finish (median)", "metadata bytes per startTx",
        "publish (median)", "metadata cells");
    List<String> categories = new ArrayList<>();
    List<Double> readMs = new ArrayList<>();
    List<Double> publishMs = new ArrayList<>();
    for (Step s : steps) {
      table.row(Format.rows(s.publishes()), Format.number(s.read().median()) + " ms",
          Format.number(s.bytesPerStartTx()), Format.number(s.publish().median()) + " ms", Long.toString(s.cells()));
      categories.add(Format.rows(s.publishes()));
      readMs.add(s.read().median());
      publishMs.add(s.publish().median());
    }
    section.table(table);
    Step first = steps.get(0);
    Step last = steps.get(steps.size() - 1);
    section.ratio(new Ratio("startTx+get+finish after 10 / after " + Format.rows(last.publishes()) + " publishes",
        first.read().median() / last.read().median(), 1 / 1.3));
    section.ratio(new Ratio("publish after 10 / after " + Format.rows(last.publishes()) + " publishes",
        first.publish().median() / last.publish().median(), 1 / 1.3));
    section.chart(new Charts.Bars("Latency against publishes ever made (median)", "ms", categories)
        .series("startTx+get+finish", readMs).series("publish", publishMs).save(ctx.docs(), "bench-metadata.png"),
        "latency against publishes");
    return section;
  }
}
