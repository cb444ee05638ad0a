package io.snapds.bench;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * Item 5: rows/s removing an expired snapshot with {@code cleanup()} against raw deletes of the
 * same rows in a plain table: deletes of keys the client knows (a {@code BufferedMutator}, no
 * scan), and scan-then-delete (what cleanup has to do, since it does not know the keys).
 */
final class CleanupBenchmark implements Benchmark {
  static final double TARGET = 0.90;

  @Override
  public String title() {
    return "5. Cleanup of an expired snapshot";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    long rows = ctx.scale().cleanupRows();
    List<Double> ours = new ArrayList<>();
    List<Double> known = new ArrayList<>();
    List<Double> scanned = new ArrayList<>();
    for (int rep = 0; rep < ctx.scale().cleanupReps(); rep++) {
      ours.add(cleanup(ctx, rows));
      known.add(raw(ctx, rows, false));
      scanned.add(raw(ctx, rows, true));
    }
    Measured o = new Measured("rows/s", ours);
    Measured k = new Measured("rows/s", known);
    Measured s = new Measured("rows/s", scanned);
    Ratio vsKnown = Ratio.of("cleanup vs known keys", o, k, TARGET);
    Ratio vsScan = Ratio.of("cleanup vs scan+delete", o, s, TARGET);
    Section section = new Section(title()).ratio(vsKnown).ratio(vsScan);
    section.text("A dataset keeping only the last snapshot gets one of " + Format.rows(rows) + " rows, then a "
        + "one-row snapshot that expires it; its data table is flushed and major-compacted; then `cleanup()` is timed "
        + "(its rows/s: rows deleted / time). Baselines, on a plain table with the same rows, also flushed and "
        + "compacted: deleting the keys the client knows through a `BufferedMutator`, and scanning the keys to "
        + "delete them in batches of " + PlainOps.DELETE_BATCH + " (cleanup cannot know the keys without a scan). "
        + "The three alternate, repetition by repetition; target " + Format.ratio(TARGET) + " of each baseline.");
    section.table(new MarkdownTable("remove " + Format.rows(rows) + " rows", "rows/s", "ours / this", "spread", "target")
        .row("`cleanup()` of the expired snapshot (ours)", o.describe(), "", "", "")
        .row("raw deletes of known keys (BufferedMutator)", k.describe(), Format.ratio(vsKnown.value()),
            Spread.of(o, k, vsKnown), vsKnown.verdict())
        .row("raw scan + batched deletes", s.describe(), Format.ratio(vsScan.value()), Spread.of(o, s, vsScan),
            vsScan.verdict()));
    return section;
  }

  private static double cleanup(BenchContext ctx, long rows) throws Exception {
    SnapshotDataset dataset = ctx.createDataset("cleanup",
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    try {
      try (SnapshotWriter w = dataset.newSnapshot().begin()) {
        RowData.write(w, 1, rows);
        w.commit();
      }
      SnapshotInfo expired = dataset.currentSnapshot().orElseThrow();
      try (SnapshotWriter w = dataset.newSnapshot().begin()) {
        RowData.write(w, 2, 1);
        w.commit();
      }
      Compaction.settle(ctx.cluster().util(), dataset.id().dataTable());
      long start = System.nanoTime();
      CleanupResult result = dataset.cleanup();
      double seconds = (System.nanoTime() - start) / 1e9;
      if (!result.cleaned().contains(expired.id()) || result.rowsDeleted() != rows) {
        throw new IllegalStateException("cleanup did not remove snapshot " + expired.id() + ": " + result);
      }
      return rows / seconds;
    } finally {
      ctx.drop(dataset);
    }
  }

  private static double raw(BenchContext ctx, long rows, boolean scan) throws Exception {
    TableName table = ctx.tables().create(ctx.name("cleanup_raw"));
    try {
      PlainOps.write(ctx.connection(), table, rows, 1);
      Compaction.settle(ctx.cluster().util(), table);
      long start = System.nanoTime();
      if (scan) {
        PlainOps.scanAndDelete(ctx.connection(), table);
      } else {
        PlainOps.deleteKnown(ctx.connection(), table, rows);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long left = ctx.tables().countVisible(table).rows();
      if (left != 0) {
        throw new IllegalStateException("raw delete left " + left + " rows");
      }
      return rows / seconds;
    } finally {
      ctx.tables().drop(table);
    }
  }
}
