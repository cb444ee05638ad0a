package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.MiniHBaseCluster;

/**
 * Issue #12 item 1: how fast a snapshot builds on three region servers when it inherits its
 * parent's regions (pre-split and spread over the servers in {@code begin()}) against the same
 * build with pre-splitting off (every row into the table's last region). The benchmark cluster
 * has one region server; this one starts two more for its run and stops them after.
 */
final class PresplitBenchmark implements Benchmark {
  static final double TARGET = 1.5;
  private static final int SERVERS = 3;
  private static final int PARENT_REGIONS = 6;

  @Override
  public String title() {
    return "12. Builds over inherited splits on three region servers";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    Scale scale = ctx.scale();
    long rows = scale.cleanupRows() * 2;
    int reps = Math.max(3, scale.cleanupReps());
    MiniHBaseCluster hbase = ctx.cluster().util().getMiniHBaseCluster();
    List<Integer> started = new ArrayList<>();
    while (hbase.getLiveRegionServerThreads().size() < SERVERS) {
      hbase.startRegionServer();
      started.add(hbase.getRegionServerThreads().size() - 1);
    }
    ctx.cluster().util().waitUntilNoRegionsInTransition(60_000);
    SnapshotDataset split = dataset(ctx, "presplit_on", rows, true);
    SnapshotDataset whole = dataset(ctx, "presplit_off", rows, false);
    try {
      List<Double> on = new ArrayList<>();
      List<Double> off = new ArrayList<>();
      List<Double> onBegin = new ArrayList<>();
      List<Double> offBegin = new ArrayList<>();
      for (int rep = 0; rep < reps; rep++) {
        Build a = build(split, rows, rep);
        Build b = build(whole, rows, rep);
        on.add(a.rowsPerSecond());
        onBegin.add(a.beginMs());
        off.add(b.rowsPerSecond());
        offBegin.add(b.beginMs());
      }
      Measured o = new Measured("rows/s", on);
      Measured w = new Measured("rows/s", off);
      Measured ob = new Measured("ms", onBegin);
      Measured wb = new Measured("ms", offBegin);
      Ratio ratio = Ratio.paired("build with inherited splits / without", o, w, TARGET);
      Section section = new Section(title()).ratio(ratio);
      section.text("Two datasets on " + SERVERS + " region servers (the benchmark's one and two started for this run, "
          + "all in the mini cluster's JVM). Each first publishes a parent of " + Format.rows(rows) + " rows; the "
          + "pre-split one's range is split in " + PARENT_REGIONS + " regions (`firstSplitPoints`). Then, alternating, each builds a new snapshot "
          + "of the same " + Format.rows(rows) + " rows (" + RowData.COLUMNS + " columns) in the benchmark's JVM and "
          + "publishes it: with pre-splitting on, `begin()` splits the new range at the parent's " + PARENT_REGIONS
          + " boundaries and spreads the regions over the servers; off (`presplitMaxRegions(0)`), every row goes to the "
          + "table's last region. Rate: rows / (first row to commit()); `begin()`, where the splits and moves "
          + "happen, is timed apart: a fixed cost per build, about a second per region, that a build of real size "
          + "(minutes) amortizes and one of this size does not.");
      section.table(new MarkdownTable("build", "rows/s", "ratio", "spread", "begin()")
          .row("inherited splits, spread", o.describe(), Format.ratio(ratio.value()), Spread.paired(o, w, ratio),
              ob.describe())
          .row("no pre-split", w.describe(), "1.00x", "", wb.describe()));
      if (!ratio.meetsTarget()) { // the ratio itself is listed as the miss
        profile(ctx, section, split, whole, rows, reps);
      }
      return section;
    } finally {
      ctx.drop(split);
      ctx.drop(whole);
      for (int i = started.size() - 1; i >= 0; i--) {
        hbase.stopRegionServer(started.get(i));
        hbase.waitOnRegionServer(started.get(i));
      }
      ctx.cluster().util().waitUntilNoRegionsInTransition(60_000);
    }
  }

  /**
   * Why: one more build of each kind under JFR. The writer, the three region servers and HDFS all
   * share this JVM and the machine's cores, so what the samples show is where those cores went.
   */
  private static void profile(BenchContext ctx, Section section, SnapshotDataset split, SnapshotDataset whole,
      long rows, int reps) throws Exception {
    int[] rep = {reps};
    Profile on = Profile.record(ctx.workDir().resolve("presplit-on.jfr"), 0, () -> build(split, rows, rep[0]++));
    Profile off = Profile.record(ctx.workDir().resolve("presplit-off.jfr"), 0, () -> build(whole, rows, rep[0]++));
    section.text("**Why (profile).** One more build of each kind under JFR (`settings=profile`), in the one JVM that "
        + "holds the writer, the region servers and HDFS (" + Runtime.getRuntime().availableProcessors()
        + " cores). Samples per thread kind:");
    section.text(Profile.compare("inherited splits", on, "no pre-split", off));
    section.text("With inherited splits:\n\n" + on.summary(12));
  }

  /** A dataset with a published parent of {@code rows} rows; its range split when pre-splitting is on. */
  private static SnapshotDataset dataset(BenchContext ctx, String prefix, long rows, boolean presplit) {
    List<byte[]> points = new ArrayList<>();
    for (int i = 1; i < PARENT_REGIONS; i++) {
      points.add(RowData.key(rows * i / PARENT_REGIONS));
    }
    DatasetProperties.Builder props = DatasetProperties.builder().retention(RetentionPolicy.retainLast(1));
    SnapshotDataset ds = ctx.createDataset(prefix,
        (presplit ? props.firstSplitPoints(points) : props.presplitMaxRegions(0)).build());
    SnapshotWriter parent = ds.newSnapshot().begin();
    RowData.write(parent, 0, rows);
    parent.commit();
    return ds;
  }

  /** One build: rows/s from its first row to commit(), and how long begin() took (the splits and moves). */
  private record Build(double rowsPerSecond, double beginMs) {}

  private static Build build(SnapshotDataset ds, long rows, int rep) {
    long start = System.nanoTime();
    SnapshotWriter w = ds.newSnapshot().begin();
    long begun = System.nanoTime();
    RowData.write(w, rep + 1, rows);
    SnapshotInfo published = w.commit();
    double seconds = (System.nanoTime() - begun) / 1e9;
    if (published.rowCount() != rows) {
      throw new IllegalStateException("published " + published.rowCount() + " rows, wrote " + rows);
    }
    ds.cleanup(); // the expired parent's rows
    return new Build(rows / seconds, (begun - start) / 1e6);
  }
}
