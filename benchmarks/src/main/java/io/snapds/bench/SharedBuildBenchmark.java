package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SharedBuildResult;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Item 7: many jobs at once over a few source keys. A build reads its source slice from a source
 * table (a scan) and writes those rows out. Ours: every job calls {@code sharedBuild(key, builder)};
 * one builds per key, the others reuse its snapshot. Baseline: every job builds its own copy, under
 * its own key prefix in a plain table.
 */
final class SharedBuildBenchmark implements Benchmark {
  @Override
  public String title() {
    return "7. Shared builds";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    Scale scale = ctx.scale();
    TableName source = ctx.tables().create(ctx.name("shared_source"));
    try {
      writeSource(ctx, source);
      List<Double> oursMs = new ArrayList<>();
      List<Double> rawMs = new ArrayList<>();
      int oursCalls = 0;
      int rawCalls = 0;
      for (int rep = 0; rep < scale.sharedReps(); rep++) {
        AtomicInteger calls = new AtomicInteger();
        oursMs.add(ours(ctx, source, calls));
        oursCalls = calls.get();
        AtomicInteger builds = new AtomicInteger();
        rawMs.add(raw(ctx, source, builds));
        rawCalls = builds.get();
      }
      Measured o = new Measured("ms", oursMs);
      Measured r = new Measured("ms", rawMs);
      // a speed-up: the baseline's wall time over ours
      Ratio speedup = new Ratio("shared builds speed-up", r.median() / o.median(), Double.NaN);
      Section section = new Section(title()).ratio(speedup);
      section.text(scale.sharedJobs() + " jobs start at once (one thread each) over " + scale.sharedKeys()
          + " source keys. A build scans its key's slice of a source table (" + Format.rows(scale.sharedRowsPerBuild())
          + " rows of " + RowData.COLUMNS + " columns) and writes those rows. Ours: "
          + "`dataset.sharedBuild(key, builder)` from the job's own `SnapshotDataset` (opened inside the job). "
          + "Baseline: every job runs the same build and writes its own copy under its own key prefix into a plain "
          + "table (`BufferedMutator`). Wall time: from releasing the jobs until the last one has its data.");
      section.table(new MarkdownTable("", "builder calls", "wall time", "speed-up")
          .row("shared builds (ours)", Integer.toString(oursCalls), o.describe(), Format.ratio(speedup.value()))
          .row("every job builds its own", Integer.toString(rawCalls), r.describe(), "1.00x"));
      if (oursCalls != scale.sharedKeys()) {
        section.miss("shared builds: " + oursCalls + " builder calls for " + scale.sharedKeys() + " keys");
      }
      return section;
    } finally {
      ctx.tables().drop(source);
    }
  }

  private static String key(int k) {
    return "slice-" + k;
  }

  private static byte[] sourcePrefix(String key) {
    return Bytes.toBytes(key + "/");
  }

  private static void writeSource(BenchContext ctx, TableName source) throws IOException {
    Scale scale = ctx.scale();
    try (BufferedMutator m = ctx.connection().getBufferedMutator(source)) {
      for (int k = 0; k < scale.sharedKeys(); k++) {
        for (long row = 0; row < scale.sharedRowsPerBuild(); row++) {
          m.mutate(RowData.put(Bytes.add(sourcePrefix(key(k)), RowData.key(row)), k, row));
        }
      }
    }
  }

  /** The build: scan the slice, hand each row (key without the slice prefix) to {@code sink}. */
  private static long build(BenchContext ctx, TableName source, String key, RowSink sink) throws IOException {
    byte[] prefix = sourcePrefix(key);
    long rows = 0;
    try (Table t = ctx.connection().getTable(source);
        ResultScanner scanner = t.getScanner(new Scan().setRowPrefixFilter(prefix).setCaching(500))) {
      for (Result r : scanner) {
        byte[] rowKey = Bytes.tail(r.getRow(), r.getRow().length - prefix.length);
        for (Cell c : r.rawCells()) {
          sink.accept(rowKey, CellUtil.cloneQualifier(c), CellUtil.cloneValue(c));
        }
        rows++;
      }
    }
    return rows;
  }

  private interface RowSink {
    void accept(byte[] key, byte[] qualifier, byte[] value) throws IOException;
  }

  private static double ours(BenchContext ctx, TableName source, AtomicInteger calls) throws Exception {
    Scale scale = ctx.scale();
    SnapshotDataset created = ctx.createDataset("shared",
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(scale.sharedKeys())).build());
    try {
      List<Callable<Boolean>> jobs = new ArrayList<>();
      for (int j = 0; j < scale.sharedJobs(); j++) {
        String key = key(j % scale.sharedKeys());
        jobs.add(() -> {
          SnapshotDataset ds = ctx.datasets().open(created.id());
          SharedBuildResult result = ds.sharedBuild(key, (SnapshotWriter writer) -> {
            calls.incrementAndGet();
            build(ctx, source, key, (k, q, v) -> writer.put(k, RowData.FAMILY, q, v));
          });
          return result.snapshot().rowCount() == scale.sharedRowsPerBuild();
        });
      }
      return runAll(jobs);
    } finally {
      ctx.drop(created);
    }
  }

  private static double raw(BenchContext ctx, TableName source, AtomicInteger builds) throws Exception {
    Scale scale = ctx.scale();
    TableName table = ctx.tables().create(ctx.name("shared_raw"));
    try {
      List<Callable<Boolean>> jobs = new ArrayList<>();
      for (int j = 0; j < scale.sharedJobs(); j++) {
        String key = key(j % scale.sharedKeys());
        byte[] prefix = Bytes.toBytes(String.format("job%03d/", j));
        jobs.add(() -> {
          builds.incrementAndGet();
          long rows;
          try (BufferedMutator m = ctx.connection().getBufferedMutator(table)) {
            // one Put per cell, as the build hands cells over; the mutator batches them
            rows = build(ctx, source, key, (k, q, v) -> m.mutate(
                new Put(Bytes.add(prefix, k)).addColumn(RowData.FAMILY_BYTES, q, v)));
          }
          return rows == scale.sharedRowsPerBuild();
        });
      }
      return runAll(jobs);
    } finally {
      ctx.tables().drop(table);
    }
  }

  /** Runs the jobs, one thread each, released together; returns the wall time in ms. */
  private static double runAll(List<Callable<Boolean>> jobs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(jobs.size());
    try {
      CountDownLatch ready = new CountDownLatch(jobs.size());
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Boolean>> futures = new ArrayList<>();
      for (Callable<Boolean> job : jobs) {
        futures.add(pool.submit(() -> {
          ready.countDown();
          go.await();
          return job.call();
        }));
      }
      ready.await();
      long start = System.nanoTime();
      go.countDown();
      for (Future<Boolean> f : futures) {
        if (!f.get()) {
          throw new IllegalStateException("a job ended with the wrong number of rows");
        }
      }
      return (System.nanoTime() - start) / 1e6;
    } finally {
      pool.shutdownNow();
    }
  }
}
