package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * Item 2: scanning the current snapshot against a raw scan of the same rows in a plain table, and
 * point gets likewise. Both tables are flushed and major-compacted first and read once to warm
 * the block cache; then ours and the baseline alternate. Both sides read every value (summing
 * value lengths), so the work per row is the same apart from our API.
 */
final class ReadBenchmark implements Benchmark {
  static final double TARGET = 0.95;
  private static final int CACHING = 500; // RowScan's default

  @Override
  public String title() {
    return "2. Scan and point-get throughput";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    Scale scale = ctx.scale();
    long rows = scale.readRows();
    SnapshotDataset dataset = ctx.createDataset("read", DatasetProperties.defaults());
    TableName plain = ctx.tables().create(ctx.name("read_raw"));
    try {
      try (SnapshotWriter w = dataset.newSnapshot().begin()) {
        RowData.write(w, 1, rows);
        w.commit();
      }
      try (BufferedMutator m = ctx.connection().getBufferedMutator(plain)) {
        RowData.write(m, 1, rows);
      }
      Compaction.settle(ctx.cluster().util(), dataset.id().dataTable());
      Compaction.settle(ctx.cluster().util(), plain);

      SnapshotReader current = dataset.readCurrent();
      check(rows, scanOurs(dataset), "snapshot scan");
      check(rows, scanRaw(ctx, plain), "raw scan");
      List<Double> oursScan = new ArrayList<>();
      List<Double> rawScan = new ArrayList<>();
      for (int rep = 0; rep < scale.readReps(); rep++) {
        oursScan.add(rate(rows, () -> scanOurs(dataset)));
        rawScan.add(rate(rows, () -> scanRaw(ctx, plain)));
      }

      List<byte[]> keys = randomKeys(rows, scale.pointGets());
      getsOurs(current, keys);
      getsRaw(ctx, plain, keys);
      List<Double> oursGets = new ArrayList<>();
      List<Double> rawGets = new ArrayList<>();
      for (int rep = 0; rep < scale.readReps(); rep++) {
        oursGets.add(rate(keys.size(), () -> getsOurs(current, keys)));
        rawGets.add(rate(keys.size(), () -> getsRaw(ctx, plain, keys)));
      }

      Measured os = new Measured("rows/s", oursScan);
      Measured rs = new Measured("rows/s", rawScan);
      Measured og = new Measured("gets/s", oursGets);
      Measured rg = new Measured("gets/s", rawGets);
      Ratio scanRatio = Ratio.of("scan " + Format.rows(rows), os, rs, TARGET);
      Ratio getRatio = Ratio.of("point gets", og, rg, TARGET);
      Section section = new Section(title()).ratio(scanRatio).ratio(getRatio);
      section.text("One snapshot of " + Format.rows(rows) + " rows (" + RowData.COLUMNS + " columns of "
          + RowData.VALUE_BYTES + " bytes) and a plain table with the same rows, each flushed and major-compacted to "
          + "one store file. Scan: ours is `dataset.readCurrent().scan(RowScan.all())` iterating `SnapshotRow`s; the "
          + "baseline a `Scan` with the same caching (" + CACHING + ") iterating `Result`s. Point gets: "
          + Format.rows(keys.size()) + " random keys one at a time, `reader.get(key)` against `table.get(new Get(key))`.");
      section.table(new MarkdownTable("read", "ours", "raw HBase", "ratio", "target")
          .row("scan", os.describe(), rs.describe(), Format.ratio(scanRatio.value()), scanRatio.verdict())
          .row("point get", og.describe(), rg.describe(), Format.ratio(getRatio.value()), getRatio.verdict()));
      if (!scanRatio.meetsTarget()) {
        Path dir = ctx.workDir();
        Profile ours = Profile.record(dir.resolve("scan-snapshot.jfr"), 5, () -> scanOurs(dataset));
        Profile raw = Profile.record(dir.resolve("scan-raw.jfr"), 5, () -> scanRaw(ctx, plain));
        section.text("**Why (profile).** More scans of each kind (for at least 5 s each) under JFR (`settings=profile`) in this JVM, "
            + "which hosts both the client and the region server; recordings in "
            + "`benchmarks/target/bench-work/scan-*.jfr`. Samples per thread kind:");
        section.text(Profile.compare("snapshot scan", ours, "raw scan", raw));
        section.text("Snapshot scans:\n\n" + ours.summary(12));
      }
      if (!getRatio.meetsTarget()) {
        Path dir = ctx.workDir();
        Profile ours = Profile.record(dir.resolve("get-snapshot.jfr"), 5, () -> getsOurs(current, keys));
        Profile raw = Profile.record(dir.resolve("get-raw.jfr"), 5, () -> getsRaw(ctx, plain, keys));
        section.text("**Why (profile), point gets.** More gets of each kind (for at least 5 s each) under JFR; "
            + "recordings in `benchmarks/target/bench-work/get-*.jfr`. Samples per thread kind:");
        section.text(Profile.compare("snapshot gets", ours, "raw gets", raw));
        section.text("Snapshot gets:\n\n" + ours.summary(12));
      }
      return section;
    } finally {
      ctx.drop(dataset);
      ctx.tables().drop(plain);
    }
  }

  private static void check(long expected, long got, String what) {
    if (expected != got) {
      throw new IllegalStateException(what + " read " + got + " rows, expected " + expected);
    }
  }

  interface Work {
    long run() throws IOException;
  }

  static double rate(long count, Work work) throws IOException {
    long start = System.nanoTime();
    long sink = work.run();
    double seconds = (System.nanoTime() - start) / 1e9;
    if (sink < 0) {
      throw new IllegalStateException("impossible");
    }
    return count / seconds;
  }

  private static long scanOurs(SnapshotDataset dataset) {
    long rows = 0;
    long bytes = 0;
    try (RowScanner scanner = dataset.readCurrent().scan(RowScan.all().caching(CACHING))) {
      for (SnapshotRow row : scanner) {
        rows++;
        bytes += valueBytes(row);
      }
    }
    return bytes > 0 ? rows : -1;
  }

  private static long valueBytes(SnapshotRow row) {
    long bytes = 0;
    for (NavigableMap<byte[], byte[]> columns : row.families().values()) {
      for (Map.Entry<byte[], byte[]> c : columns.entrySet()) {
        bytes += c.getValue().length;
      }
    }
    return bytes;
  }

  private static long scanRaw(BenchContext ctx, TableName table) throws IOException {
    long rows = 0;
    long bytes = 0;
    try (Table t = ctx.connection().getTable(table);
        ResultScanner scanner = t.getScanner(new Scan().setCaching(CACHING))) {
      for (Result r : scanner) {
        rows++;
        for (Cell c : r.rawCells()) {
          bytes += c.getValueLength();
        }
      }
    }
    return bytes > 0 ? rows : -1;
  }

  private static List<byte[]> randomKeys(long rows, int n) {
    Random random = new Random(42);
    List<byte[]> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(RowData.key((long) (random.nextDouble() * rows)));
    }
    return keys;
  }

  private static long getsOurs(SnapshotReader reader, List<byte[]> keys) {
    long found = 0;
    for (byte[] k : keys) {
      found += reader.get(k).map(ReadBenchmark::valueBytes).orElse(0L) > 0 ? 1 : 0;
    }
    check(keys.size(), found, "snapshot gets");
    return found;
  }

  private static long getsRaw(BenchContext ctx, TableName table, List<byte[]> keys) throws IOException {
    long found = 0;
    try (Table t = ctx.connection().getTable(table)) {
      for (byte[] k : keys) {
        Result r = t.get(new Get(k));
        long bytes = 0;
        for (Cell c : r.rawCells()) {
          bytes += c.getValueLength();
        }
        found += bytes > 0 ? 1 : 0;
      }
    }
    check(keys.size(), found, "raw gets");
    return found;
  }
}
