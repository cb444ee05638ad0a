package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.DiffScanner;
import io.snapds.dataset.DiffSummary;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.read.SnapshotSelector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * Item 13 (issue 40): a diff of two snapshots that differ in about 1% of their rows, against plain
 * HBase scanning both snapshots' key ranges of the same data table one after the other, in the
 * same run: the diff reads the same cells and compares them, plain HBase only reads them. Also
 * {@code summary()} (what {@code snapds diff --stat} runs). Rows per side: {@code -Dbench.diff.rows}
 * (default: the read benchmark's size).
 */
final class DiffBenchmark implements Benchmark {
  static final double TARGET = 0.90;
  private static final int CACHING = 500; // RowScan's default

  @Override
  public String title() {
    return "13. Diff of two snapshots";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    Scale scale = ctx.scale();
    long rows = Long.getLong("bench.diff.rows", scale.readRows());
    int reps = Integer.getInteger("bench.diff.reps", Math.max(3, Math.min(5, scale.readReps())));
    SnapshotDataset ds = ctx.createDataset("diff", DatasetProperties.builder()
        .retention(RetentionPolicy.retainLast(2)).build());
    try {
      SnapshotInfo a;
      try (SnapshotWriter w = ds.newSnapshot().begin()) {
        RowData.write(w, 1, rows);
        a = w.commit();
      }
      SnapshotInfo b;
      long differ = 0;
      try (SnapshotWriter w = ds.newSnapshot().begin()) {
        // 1 row in 100 differs: a third changed (one cell), a third removed, a third added
        for (long r = 0; r < rows; r++) {
          long slot = r % 300;
          if (slot == 100) {
            differ++;
            continue; // removed
          }
          byte[] key = RowData.key(r);
          for (int c = 0; c < RowData.COLUMNS; c++) {
            w.put(key, RowData.FAMILY, RowData.qualifier(c), RowData.value(slot == 0 && c == 0 ? 2 : 1, r, c));
          }
          if (slot == 200) { // added: a row under a new key, right after this one
            byte[] added = org.apache.hadoop.hbase.util.Bytes.add(key, new byte[] {'+'});
            for (int c = 0; c < RowData.COLUMNS; c++) {
              w.put(added, RowData.FAMILY, RowData.qualifier(c), RowData.value(2, r, c));
            }
          }
          differ += slot == 0 || slot == 200 ? 1 : 0;
        }
        b = w.commit();
      }
      Compaction.settle(ctx.cluster().util(), ds.id().dataTable());
      SnapshotSelector from = SnapshotSelector.snapshot(a.id());
      SnapshotSelector to = SnapshotSelector.snapshot(b.id());
      long expected = checkedDiff(ds, from, to);
      // warm-up, both sides
      diffOurs(ds, from, to);
      summaryOurs(ds, from, to);
      scanRaw(ctx, ds.id().dataTable(), a.keys(), b.keys());

      List<Double> ours = new ArrayList<>();
      List<Double> summary = new ArrayList<>();
      List<Double> raw = new ArrayList<>();
      long readRows = a.rowCount() + b.rowCount();
      for (int rep = 0; rep < reps; rep++) {
        raw.add(rate(readRows, () -> scanRaw(ctx, ds.id().dataTable(), a.keys(), b.keys())));
        ours.add(rate(readRows, () -> diffOurs(ds, from, to)));
        raw.add(rate(readRows, () -> scanRaw(ctx, ds.id().dataTable(), a.keys(), b.keys())));
        summary.add(rate(readRows, () -> summaryOurs(ds, from, to)));
      }
      List<Double> rawForDiff = new ArrayList<>();
      List<Double> rawForSummary = new ArrayList<>();
      for (int i = 0; i < raw.size(); i++) {
        (i % 2 == 0 ? rawForDiff : rawForSummary).add(raw.get(i));
      }
      Measured om = new Measured("rows/s", ours);
      Measured sm = new Measured("rows/s", summary);
      Measured rd = new Measured("rows/s", rawForDiff);
      Measured rs = new Measured("rows/s", rawForSummary);
      Ratio diffRatio = Ratio.paired("diff", om, rd, TARGET);
      Ratio summaryRatio = Ratio.paired("diff --stat", sm, rs, TARGET);
      Section section = new Section(title());
      section.ratio(diffRatio).ratio(summaryRatio);
      section.text("Two snapshots of " + Format.rows(rows) + " rows (" + RowData.COLUMNS + " columns of "
          + RowData.VALUE_BYTES + " bytes) in one data table, flushed and major-compacted; the second differs in "
          + Format.rows(expected) + " rows (a third with one cell changed, a third removed, a third added under new"
          + " keys). Ours: `dataset.diff(from, to)` iterated to the end (each change's keys and cells read), and "
          + "`diff(from, to).summary()`. Raw: two plain HBase scans of the same data table, the first snapshot's "
          + "key range then the second's, caching " + CACHING + ", summing each cell's value length. Rates are rows "
          + "read on both sides (" + Format.rows(readRows) + " per run) per second; each ratio is the median of "
          + reps + " paired ratios (each run of ours against the raw run right before it).");
      MarkdownTable table = new MarkdownTable("read", "ours", "raw HBase (both ranges)", "ratio", "spread", "target");
      table.row("diff (" + Format.rows(expected) + " changes)", om.describe(), rd.describe(),
          Format.ratio(diffRatio.value()), Spread.paired(om, rd, diffRatio), diffRatio.verdict());
      table.row("summary (`--stat`)", sm.describe(), rs.describe(), Format.ratio(summaryRatio.value()),
          Spread.paired(sm, rs, summaryRatio), summaryRatio.verdict());
      section.table(table);
      return section;
    } finally {
      ctx.drop(ds);
    }
  }

  private interface Work {
    long run() throws IOException;
  }

  private static double rate(long rows, Work work) throws IOException {
    long start = System.nanoTime();
    if (work.run() <= 0) {
      throw new IllegalStateException("a run read nothing");
    }
    return rows / ((System.nanoTime() - start) / 1e9);
  }

  /** The diff once, checked against the rows written: returns the number of changes. */
  private static long checkedDiff(SnapshotDataset ds, SnapshotSelector from, SnapshotSelector to) {
    DiffSummary s;
    try (DiffScanner d = ds.diff(from, to)) {
      s = d.summary();
    }
    if (s.changed() == 0 || s.removed() == 0 || s.added() == 0 || s.changes() != diffOurs(ds, from, to)) {
      throw new IllegalStateException("the benchmark's snapshots do not differ as written: " + s);
    }
    return s.changes();
  }

  private static long diffOurs(SnapshotDataset ds, SnapshotSelector from, SnapshotSelector to) {
    long changes = 0;
    long bytes = 0;
    try (DiffScanner diff = ds.diff(from, to)) {
      for (RowChange c : diff) {
        changes++;
        bytes += c.key().length + valueBytes(c.before().orElse(null)) + valueBytes(c.after().orElse(null));
      }
    }
    return bytes > 0 ? changes : -1;
  }

  private static long summaryOurs(SnapshotDataset ds, SnapshotSelector from, SnapshotSelector to) {
    try (DiffScanner diff = ds.diff(from, to)) {
      DiffSummary s = diff.summary();
      return s.changes() + s.unchanged();
    }
  }

  private static long valueBytes(SnapshotRow row) {
    long bytes = 0;
    if (row != null) {
      for (Cell c : row.cells()) {
        bytes += c.getValueLength();
      }
    }
    return bytes;
  }

  private static long scanRaw(BenchContext ctx, TableName data, SnapshotKeys a, SnapshotKeys b) throws IOException {
    long rows = 0;
    long bytes = 0;
    try (Table t = ctx.connection().getTable(data)) {
      for (SnapshotKeys k : List.of(a, b)) {
        try (ResultScanner scanner = t.getScanner(new Scan().withStartRow(k.start()).withStopRow(k.stop())
            .setCaching(CACHING))) {
          for (Result r : scanner) {
            rows++;
            for (Cell c : r.rawCells()) {
              bytes += c.getValueLength();
            }
          }
        }
      }
    }
    return bytes > 0 ? rows : -1;
  }
}
