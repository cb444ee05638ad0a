package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Item 2: reads of the current snapshot against the same reads of the same rows in a plain table:
 * full, prefix and projected scans, point gets and multi-gets. Both tables are flushed and
 * major-compacted first and each read runs once unmeasured; then ours and the baseline alternate,
 * repetition by repetition. Both sides read every value they get (summing value lengths through
 * the cells, {@code SnapshotRow.cells()} against {@code Result.rawCells()}), so the work per row
 * is the same apart from our API; one more row shows what building {@code SnapshotRow.families()}
 * maps adds (no target: it is a convenience a reader may skip).
 */
final class ReadBenchmark implements Benchmark {
  static final double TARGET = 0.95;
  private static final int CACHING = 500; // RowScan's default
  private static final int MULTI_GET_BATCH = 100;
  private static final int WARMUP_ROUNDS = 2;
  /** The shortest repetition: a read shorter than this is repeated within it. */
  static final long MIN_REPETITION_NANOS = 500_000_000L;
  private static final byte[] PROJECTED = RowData.qualifier(3);

  @Override
  public String title() {
    return "2. Scan and get throughput";
  }

  /** One kind of read: ours and the baseline, each returning the number of rows (or keys) it read. */
  private record Case(String label, String what, double target, ReadBenchmark.Work ours, ReadBenchmark.Work raw) {}

  @Override
  public Section run(BenchContext ctx) throws Exception {
    Scale scale = ctx.scale();
    long rows = scale.readRows();
    SnapshotDataset dataset = ctx.createDataset("read", DatasetProperties.defaults());
    TableName plain = ctx.tables().create(ctx.name("read_raw"));
    TableName layout = ctx.tables().create(ctx.name("read_raw_layout"));
    try {
      byte[] layoutPrefix; // the prefix the snapshot's rows really carry (its record's keys)
      try (SnapshotWriter w = dataset.newSnapshot().begin()) {
        RowData.write(w, 1, rows);
        layoutPrefix = w.commit().keys().prefix();
      }
      try (BufferedMutator m = ctx.connection().getBufferedMutator(plain)) {
        RowData.write(m, 1, rows);
      }
      try (BufferedMutator m = ctx.connection().getBufferedMutator(layout)) {
        RowData.writeSnapshotLayout(m, layoutPrefix, 1, rows);
      }
      Compaction.settle(ctx.cluster().util(), dataset.id().dataTable());
      Compaction.settle(ctx.cluster().util(), plain);
      Compaction.settle(ctx.cluster().util(), layout);

      SnapshotReader current = dataset.readCurrent();
      List<byte[]> keys = randomKeys(rows, scale.pointGets());
      long prefixRows = prefixRows(rows);
      byte[] prefixKey = prefix(prefixRows);
      // the three scans with a target, each defined once: measured in the cases, timed in parts after them
      TimedScan full = new TimedScan("full scan", RowScan.all().caching(CACHING), new Scan(), rows);
      TimedScan prefixed = new TimedScan("prefix scan (" + Format.rows(prefixRows) + " rows)",
          RowScan.all().prefix(prefixKey).caching(CACHING), new Scan().setStartStopRowForPrefixScan(prefixKey),
          prefixRows);
      TimedScan projected = new TimedScan("projected scan (1 of " + RowData.COLUMNS + " columns)",
          RowScan.all().column(RowData.FAMILY_BYTES, PROJECTED).caching(CACHING),
          new Scan().addColumn(RowData.FAMILY_BYTES, PROJECTED), rows);
      List<Case> cases = List.of(
          new Case("scan " + Format.rows(rows), full.what(), TARGET, () -> scanOurs(dataset, full.ours(), false),
              () -> scanRaw(ctx, plain, new Scan(full.raw()))),
          new Case("prefix scan", prefixed.what(), TARGET, () -> scanOurs(dataset, prefixed.ours(), false),
              () -> scanRaw(ctx, plain, new Scan(prefixed.raw()))),
          new Case("projected scan", projected.what(), TARGET, () -> scanOurs(dataset, projected.ours(), false),
              () -> scanRaw(ctx, plain, new Scan(projected.raw()))),
          new Case("point gets", "point get", TARGET, () -> getsOurs(current, keys), () -> getsRaw(ctx, plain, keys)),
          new Case("multi-gets", "multi-get (" + MULTI_GET_BATCH + " keys a call)", TARGET,
              () -> multiGetsOurs(current, keys), () -> multiGetsRaw(ctx, plain, keys)),
          new Case("scan + families()", "full scan building `families()`", Double.NaN,
              () -> scanOurs(dataset, RowScan.all().caching(CACHING), true), () -> scanRaw(ctx, plain, new Scan())),
          // diagnostics: plain HBase on the very bytes ours stores (the snapshot's key prefix before
          // each key, in every cell), which separates the layout's cost from our client's
          new Case("scan vs layout", "full scan, baseline on the snapshot layout's keys", Double.NaN,
              () -> scanOurs(dataset, RowScan.all().caching(CACHING), false), () -> scanRaw(ctx, layout, new Scan())),
          new Case("prefix scan vs layout", "prefix scan, baseline on the snapshot layout's keys", Double.NaN,
              () -> scanOurs(dataset, RowScan.all().prefix(prefixKey).caching(CACHING), false),
              () -> scanRaw(ctx, layout, new Scan().setStartStopRowForPrefixScan(Bytes.add(layoutPrefix, prefixKey)))),
          new Case("projected scan vs layout", "projected scan, baseline on the snapshot layout's keys", Double.NaN,
              () -> scanOurs(dataset, RowScan.all().column(RowData.FAMILY_BYTES, PROJECTED).caching(CACHING), false),
              () -> scanRaw(ctx, layout, new Scan().addColumn(RowData.FAMILY_BYTES, PROJECTED))));

      Section section = new Section(title());
      section.text("One snapshot of " + Format.rows(rows) + " rows (" + RowData.COLUMNS + " columns of "
          + RowData.VALUE_BYTES + " bytes) and a plain table with the same rows, each flushed and major-compacted to "
          + "one store file. Ours reads through `dataset.readCurrent()` (`scan(RowScan...)`, `get(key)`, "
          + "`get(List)`), the baseline through a `Table` with the same caching (" + CACHING + "), start/stop rows "
          + "and columns. Gets: " + Format.rows(keys.size()) + " random keys, one a call or "
          + MULTI_GET_BATCH + " a call. Every read runs " + WARMUP_ROUNDS + " times unmeasured before the first is "
          + "measured; a repetition runs its read again until it has taken at least "
          + Format.number(MIN_REPETITION_NANOS / 1e9) + " s. Each ratio is the median of the " + scale.readReps()
          + " paired ratios (ours / raw of each repetition, the two run back to back, so that a change of load "
          + "moves both). The spread column gives first the lowest and highest ratio the runs allow (ours min / "
          + "raw max to ours max / raw min), saying when it overlaps the target, then a distribution-free "
          + "confidence interval of the paired median (with 9 repetitions, the 2nd to the 8th paired ratio: 96%), "
          + "saying whether it lies above the target, below it, or holds it (not settled).");
      MarkdownTable table = new MarkdownTable("read", "ours", "raw HBase", "ratio", "spread", "target");
      List<String> missed = new ArrayList<>();
      // warm-up: every case, both sides, before any is measured. The JIT compiles the region
      // server's scan path and the client's during the first reads of the JVM, so the case that
      // came first used to be measured colder than the others (in the run of 2026-12-03 05:55 UTC
      // the same full scan of ours went from 120k rows/s as the first case to 183k as a later one)
      for (int round = 0; round < WARMUP_ROUNDS; round++) {
        for (Case c : cases) {
          c.ours().run();
          c.raw().run();
        }
      }
      MarkdownTable cpu = new MarkdownTable("read", "region server handlers", "client thread", "client RPC threads",
          "whole process");
      for (Case c : cases) {
        List<Rep> ours = new ArrayList<>();
        List<Rep> raw = new ArrayList<>();
        for (int rep = 0; rep < scale.readReps(); rep++) {
          ours.add(measure(c.ours()));
          raw.add(measure(c.raw()));
        }
        cpu.row(c.what(), cpuPerRow(ours, raw, Profile.REGION_SERVER),
            cpuPerRow(ours, raw, Profile.CLIENT), cpuPerRow(ours, raw, Profile.CLIENT_RPC),
            cpuPerRow(ours, raw, CpuMeter.PROCESS));
        Measured om = new Measured("rows/s", ours.stream().map(Rep::rate).toList());
        Measured rm = new Measured("rows/s", raw.stream().map(Rep::rate).toList());
        Ratio ratio = Ratio.paired(c.label(), om, rm, c.target());
        if (ratio.hasTarget()) {
          section.ratio(ratio);
          if (!ratio.meetsTarget()) {
            missed.add(c.label());
          }
        }
        table.row(c.what(), om.describe(), rm.describe(), Format.ratio(ratio.value()), Spread.paired(om, rm, ratio),
            ratio.verdict());
      }
      section.table(table);
      section.text("The last three rows are diagnostics (no target): the same reads of ours against plain HBase "
          + "reading a table written with the snapshot layout's keys (the snapshot's " + layoutPrefix.length
          + "-byte key prefix before every key, so " + layoutPrefix.length
          + " more bytes in each cell the region server reads and sends: " + cellBytes(Bytes.add(layoutPrefix,
          RowData.key(0))) + " bytes a cell instead of " + cellBytes(RowData.key(0)) + " here). "
          + "Against that baseline the difference left is our client's and the read's fixed cost.");
      section.text("Where each read's CPU goes: the same repetitions, with the CPU time of this JVM's threads "
          + "(which host the client and the region server) per 1,000 rows, ours / raw, medians of the repetitions. "
          + "A thread's CPU time does not grow while it waits for a core, so these vary less than the rates on a "
          + "shared machine.");
      section.table(cpu);
      section.table(fixedCost(dataset, ctx, plain, scale.readReps() * 10));
      section.text("The fixed cost where it is paid: the same scans again, " + scale.readReps() + " pairs each, each read "
          + "of ours right after a raw read of the same range, with the parts of each read timed. `readCurrent()` is "
          + "the resolution of the current snapshot (a Tephra start, the pointer row's get, the abort); the end "
          + "of the rows is the last call of the iteration, the one that finds no more rows: on ours it runs the "
          + "cleaning check (one get of the lock table), on raw nothing of ours. Our fixed cost is our "
          + "`readCurrent()` plus its end of rows less raw's, as a share of its whole read. Both are round trips "
          + "that come right after a scan, when a round trip takes longer than in the empty-range table above.");
      section.table(fixedCostInReads(dataset, ctx, plain, List.of(full, prefixed, projected), scale.readReps()));
      if (!missed.isEmpty()) {
        Case worst = cases.stream().filter(c -> missed.contains(c.label())).findFirst().orElseThrow();
        Profile ours = Profile.record(ctx.workDir().resolve("read-snapshot.jfr"), 5, worst.ours()::run);
        Profile raw = Profile.record(ctx.workDir().resolve("read-raw.jfr"), 5, worst.raw()::run);
        section.text("**Why (profile), " + worst.what() + ".** More reads of each kind (for at least 5 s each) under "
            + "JFR (`settings=profile`) in this JVM, which hosts both the client and the region server; recordings "
            + "in `benchmarks/target/bench-work/read-*.jfr`. Samples per thread kind:");
        section.text(Profile.compare("ours", ours, "raw", raw));
        section.text("Ours:\n\n" + ours.summary(12));
      }
      return section;
    } finally {
      ctx.drop(dataset);
      ctx.tables().drop(plain);
      ctx.tables().drop(layout);
    }
  }

  /**
   * The fixed cost of one read, whatever its length: ours resolves the current snapshot
   * ({@code readCurrent()}: a Tephra transaction, one metadata read) and, when its rows run out,
   * checks that cleanup has not begun on it (one lock-table get); raw opens a scanner. Both scan
   * a range holding no row, alternating, {@code n} times each.
   */
  private static MarkdownTable fixedCost(SnapshotDataset dataset, BenchContext ctx, TableName plain, int n)
      throws IOException {
    byte[] none = Bytes.toBytes("zz-no-such-key");
    List<Double> ours = new ArrayList<>();
    List<Double> raw = new ArrayList<>();
    Map<String, Long> oursCpu = new java.util.HashMap<>();
    Map<String, Long> rawCpu = new java.util.HashMap<>();
    try (Table t = ctx.connection().getTable(plain)) {
      for (int i = 0; i < n; i++) {
        fixedCostRead(oursCpu, ours, () -> {
          try (RowScanner scanner = dataset.readCurrent().scan(RowScan.all().prefix(none))) {
            scanner.iterator().hasNext();
          }
        });
        fixedCostRead(rawCpu, raw, () -> {
          try (ResultScanner scanner = t.getScanner(new Scan().setStartStopRowForPrefixScan(none))) {
            scanner.next();
          }
        });
      }
    }
    MarkdownTable table = new MarkdownTable("fixed cost of one read (a scan of an empty range)", "ms",
        "CPU a read: region server handlers / client thread / the process's other threads", "what it is");
    table.row("ours: `readCurrent().scan(...)`", millis(ours), cpuPerRead(oursCpu, n),
        "Tephra start + metadata get + abort, the scan's RPC, the cleaning check's get");
    table.row("raw: `Table.getScanner(...)`", millis(raw), cpuPerRead(rawCpu, n), "the scan's RPC");
    return table;
  }

  /** One of the scans with a target: our RowScan and raw's Scan (copied before use) over the same rows. */
  private record TimedScan(String what, RowScan ours, Scan raw, long rows) {}

  /** Medians over {@code pairs} reads of each scan, ours timed in parts (see the section's text). */
  private static MarkdownTable fixedCostInReads(SnapshotDataset dataset, BenchContext ctx, TableName plain,
      List<TimedScan> scans, int pairs) throws IOException {
    MarkdownTable table = new MarkdownTable("read", "ours: `readCurrent()`", "end of rows, ours / raw",
        "whole read, ours / raw", "our fixed cost, share of our read");
    for (TimedScan t : scans) {
      List<Double> resolve = new ArrayList<>();
      List<Double> endOurs = new ArrayList<>();
      List<Double> endRaw = new ArrayList<>();
      List<Double> wholeOurs = new ArrayList<>();
      List<Double> wholeRaw = new ArrayList<>();
      List<Double> share = new ArrayList<>();
      for (int i = 0; i < pairs; i++) {
        double[] raw = timedScanRaw(ctx, plain, t);
        double[] ours = timedScanOurs(dataset, t);
        endRaw.add(raw[1]);
        wholeRaw.add(raw[2]);
        resolve.add(ours[0]);
        endOurs.add(ours[1]);
        wholeOurs.add(ours[2]);
        share.add((ours[0] + ours[1] - raw[1]) / ours[2]);
      }
      table.row(t.what(), Format.number(Stats.median(resolve)) + " ms",
          Format.number(Stats.median(endOurs)) + " / " + Format.number(Stats.median(endRaw)) + " ms",
          Format.number(Stats.median(wholeOurs)) + " / " + Format.number(Stats.median(wholeRaw)) + " ms",
          Format.number(100 * Stats.median(share)) + "%");
    }
    return table;
  }

  /** One read of ours in ms: {@code readCurrent()}, the call that found the rows run out, the whole read. */
  private static double[] timedScanOurs(SnapshotDataset dataset, TimedScan t) {
    long start = System.nanoTime();
    SnapshotReader reader = dataset.readCurrent();
    long resolved = System.nanoTime();
    long rows = 0;
    long bytes = 0;
    long end = -1;
    try (RowScanner scanner = reader.scan(t.ours())) {
      java.util.Iterator<SnapshotRow> it = scanner.iterator();
      while (true) {
        boolean last = rows == t.rows(); // time only the call after the expected last row
        long before = last ? System.nanoTime() : 0;
        boolean more = it.hasNext();
        if (last) {
          end = System.nanoTime() - before;
        }
        if (!more) {
          break;
        }
        bytes += valueBytes(it.next());
        rows++;
      }
    }
    check(t.rows(), rows, "timed snapshot scan");
    if (bytes <= 0 || end < 0) {
      throw new IllegalStateException("timed snapshot scan read no values or never found its end");
    }
    return new double[] {(resolved - start) / 1e6, end / 1e6, (System.nanoTime() - start) / 1e6};
  }

  /** One read of raw in ms: 0, the call that found the rows run out, the whole read. */
  private static double[] timedScanRaw(BenchContext ctx, TableName plain, TimedScan t) throws IOException {
    long start = System.nanoTime();
    long rows = 0;
    long bytes = 0;
    long end = -1;
    try (Table table = ctx.connection().getTable(plain);
        ResultScanner scanner = table.getScanner(new Scan(t.raw()).setCaching(CACHING))) {
      while (true) {
        boolean last = rows == t.rows();
        long before = last ? System.nanoTime() : 0;
        Result r = scanner.next();
        if (last) {
          end = System.nanoTime() - before;
        }
        if (r == null) {
          break;
        }
        bytes += valueBytes(r);
        rows++;
      }
    }
    check(t.rows(), rows, "timed raw scan");
    if (bytes <= 0 || end < 0) {
      throw new IllegalStateException("timed raw scan read no values or never found its end");
    }
    return new double[] {0, end / 1e6, (System.nanoTime() - start) / 1e6};
  }

  private interface Read {
    void run() throws IOException;
  }

  /**
   * Times one short read into {@code ms} and adds its CPU to {@code cpu}: the region server's
   * handlers and the process from {@link CpuMeter} (taken outside the timed part), the reading
   * thread from its own clock (the meter runs on it and would count itself). The process's other
   * threads are the process less this thread as the meter saw it, which holds the meter's work.
   */
  private static void fixedCostRead(Map<String, Long> cpu, List<Double> ms, Read read) throws IOException {
    CpuMeter before = CpuMeter.now();
    long thread = CpuMeter.currentThreadNanos();
    long start = System.nanoTime();
    read.run();
    ms.add((System.nanoTime() - start) / 1e6);
    long threadUsed = CpuMeter.currentThreadNanos() - thread;
    Map<String, Long> used = CpuMeter.now().since(before);
    cpu.merge(Profile.REGION_SERVER, used.getOrDefault(Profile.REGION_SERVER, 0L), Long::sum);
    cpu.merge(Profile.CLIENT, threadUsed, Long::sum);
    cpu.merge("other", used.get(CpuMeter.PROCESS) - used.getOrDefault(Profile.CLIENT, 0L), Long::sum);
  }

  /** {@code 0.12 / 0.30 / 0.90 ms}: mean CPU a read of the handlers, the client thread, the rest. */
  private static String cpuPerRead(Map<String, Long> cpu, int n) {
    return String.join(" / ", Format.number(cpu.getOrDefault(Profile.REGION_SERVER, 0L) / 1e6 / n),
        Format.number(cpu.getOrDefault(Profile.CLIENT, 0L) / 1e6 / n),
        Format.number(cpu.getOrDefault("other", 0L) / 1e6 / n)) + " ms";
  }

  /** The rows under the benchmark's prefix: the largest power of ten at most a tenth of the rows. */
  static long prefixRows(long rows) {
    long p = 1;
    while (p * 10 <= rows / 10) {
      p *= 10;
    }
    return p;
  }

  /**
   * The key prefix of {@code n} rows (a power of ten): the keys {@code n .. 2n - 1}. With 100k
   * rows it is {@code k001}, the keys {@code k0010000 .. k0019999}.
   */
  static byte[] prefix(long n) {
    int zeros = Long.toString(n).length() - 1;
    String first = Bytes.toString(RowData.key(n));
    return Bytes.toBytes(first.substring(0, first.length() - zeros));
  }

  interface Work {
    long run() throws IOException;
  }

  /**
   * Rows (or keys) per second of one repetition: {@code work} run back to back until at least
   * {@link #MIN_REPETITION_NANOS} have passed. A prefix scan of 10k rows takes about 70 ms, short
   * enough for one GC pause or one compaction check of the region server to swing it by a fifth;
   * summed over half a second, such a pause weighs a few percent.
   */
  static double rate(Work work) throws IOException {
    return measure(work).rate();
  }

  /**
   * One repetition: its rate and the CPU time each kind of thread spent on it, in nanoseconds per
   * row or key read.
   */
  record Rep(double rate, Map<String, Double> cpuNanosPerRow) {}

  /** {@link #rate}, with the CPU time the repetition took by kind of thread. */
  static Rep measure(Work work) throws IOException {
    CpuMeter cpuStart = CpuMeter.now();
    long start = System.nanoTime();
    long count = 0;
    long elapsed;
    do {
      long rows = work.run();
      if (rows <= 0) {
        throw new IllegalStateException("a read returned no rows");
      }
      count += rows;
      elapsed = System.nanoTime() - start;
    } while (elapsed < MIN_REPETITION_NANOS);
    Map<String, Long> cpu = CpuMeter.now().since(cpuStart);
    Map<String, Double> perRow = new java.util.HashMap<>();
    for (Map.Entry<String, Long> e : cpu.entrySet()) {
      perRow.put(e.getKey(), e.getValue() / (double) count);
    }
    return new Rep(count / (elapsed / 1e9), perRow);
  }

  /** {@code 12.3 / 10.1 ms}: the median CPU time of one kind of thread per 1,000 rows, ours / raw. */
  private static String cpuPerRow(List<Rep> ours, List<Rep> raw, String kind) {
    return Format.number(cpuMillisPer1000(ours, kind)) + " / " + Format.number(cpuMillisPer1000(raw, kind)) + " ms";
  }

  private static double cpuMillisPer1000(List<Rep> reps, String kind) {
    return Stats.median(reps.stream().map(r -> r.cpuNanosPerRow().getOrDefault(kind, 0.0) * 1000 / 1e6).toList());
  }

  /** The serialized size of one of the benchmark's cells under {@code row}. */
  private static int cellBytes(byte[] row) {
    return new KeyValue(row, RowData.FAMILY_BYTES, RowData.qualifier(0), 0L, RowData.value(1, 0, 0)).getLength();
  }

  /** {@code 1.23 ms (median of 50, 0.90-4.10)} */
  private static String millis(List<Double> ms) {
    double min = ms.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double max = ms.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    return Format.number(Stats.median(ms)) + " ms (median of " + ms.size() + ", " + Format.number(min) + "-"
        + Format.number(max) + ")";
  }

  private static long scanOurs(SnapshotDataset dataset, RowScan scan, boolean families) {
    long rows = 0;
    long bytes = 0;
    try (RowScanner scanner = dataset.readCurrent().scan(scan)) {
      for (SnapshotRow row : scanner) {
        rows++;
        bytes += families ? familyBytes(row) : valueBytes(row);
      }
    }
    return bytes > 0 ? rows : -1;
  }

  private static long valueBytes(SnapshotRow row) {
    long bytes = 0;
    for (Cell c : row.cells()) {
      bytes += c.getValueLength();
    }
    return bytes;
  }

  private static long familyBytes(SnapshotRow row) {
    long bytes = 0;
    for (NavigableMap<byte[], byte[]> columns : row.families().values()) {
      for (Map.Entry<byte[], byte[]> c : columns.entrySet()) {
        bytes += c.getValue().length;
      }
    }
    return bytes;
  }

  private static long scanRaw(BenchContext ctx, TableName table, Scan scan) throws IOException {
    long rows = 0;
    long bytes = 0;
    try (Table t = ctx.connection().getTable(table); ResultScanner scanner = t.getScanner(scan.setCaching(CACHING))) {
      for (Result r : scanner) {
        rows++;
        bytes += valueBytes(r);
      }
    }
    return bytes > 0 ? rows : -1;
  }

  private static long valueBytes(Result r) {
    long bytes = 0;
    for (Cell c : r.rawCells()) {
      bytes += c.getValueLength();
    }
    return bytes;
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
    return check(keys.size(), found, "snapshot gets");
  }

  private static long getsRaw(BenchContext ctx, TableName table, List<byte[]> keys) throws IOException {
    long found = 0;
    try (Table t = ctx.connection().getTable(table)) {
      for (byte[] k : keys) {
        found += valueBytes(t.get(new Get(k))) > 0 ? 1 : 0;
      }
    }
    return check(keys.size(), found, "raw gets");
  }

  private static long multiGetsOurs(SnapshotReader reader, List<byte[]> keys) {
    long found = 0;
    for (int i = 0; i < keys.size(); i += MULTI_GET_BATCH) {
      for (Optional<SnapshotRow> row : reader.get(keys.subList(i, Math.min(keys.size(), i + MULTI_GET_BATCH)))) {
        found += row.map(ReadBenchmark::valueBytes).orElse(0L) > 0 ? 1 : 0;
      }
    }
    return check(keys.size(), found, "snapshot multi-gets");
  }

  private static long multiGetsRaw(BenchContext ctx, TableName table, List<byte[]> keys) throws IOException {
    long found = 0;
    try (Table t = ctx.connection().getTable(table)) {
      for (int i = 0; i < keys.size(); i += MULTI_GET_BATCH) {
        List<Get> gets = new ArrayList<>(MULTI_GET_BATCH);
        for (byte[] k : keys.subList(i, Math.min(keys.size(), i + MULTI_GET_BATCH))) {
          gets.add(new Get(k));
        }
        for (Result r : t.get(gets)) {
          found += valueBytes(r) > 0 ? 1 : 0;
        }
      }
    }
    return check(keys.size(), found, "raw multi-gets");
  }

  private static long check(long expected, long got, String what) {
    if (expected != got) {
      throw new IllegalStateException(what + " read " + got + " rows, expected " + expected);
    }
    return got;
  }
}
