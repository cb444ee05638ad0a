package io.snapds.bench;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.PublishGroup;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Item 14 (issue 39): publishing a group of 10 datasets in one transaction
 * ({@code publishTogether().writer(w)... .publish()}) against one single {@code commit()} of one
 * writer, in the same run, each repetition's two back to back in alternating order; target: the
 * group at most 2x one single publish. For context, 10 {@code commit()}s one after another, and a
 * group of 10 staged snapshots against one {@code publish(stagedId)}. Every snapshot is small (the
 * same rows in each), its rows flushed before the clock starts, so the figures are the publish
 * alone, as item 3's are. Sizes: {@code -Dbench.group.size} datasets (10),
 * {@code -Dbench.group.rows} rows a snapshot (100), {@code -Dbench.group.reps} (9; smoke 3).
 */
final class PublishGroupBenchmark implements Benchmark {
  /** The group's latency at most this many times one single publish's. */
  static final double TARGET = 2.0;
  private static final int PROFILE_REPS = 5;

  @Override
  public String title() {
    return "14. Publish group";
  }

  private interface Timed {
    void run() throws Exception;
  }

  /** The latencies of one kind of publish and the metadata read calls each made. */
  private static final class Side {
    final List<Double> ms = new ArrayList<>();
    final List<Double> readCalls = new ArrayList<>();

    Measured measured() {
      return new Measured("ms", ms);
    }

    double medianReads() {
      return Stats.median(readCalls);
    }
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    int size = Integer.getInteger("bench.group.size", 10);
    long rows = Long.getLong("bench.group.rows", 100);
    int reps = Integer.getInteger("bench.group.reps", ctx.scale() == Scale.FULL ? 9 : 3);
    List<SnapshotDataset> members = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      members.add(ctx.createDataset("group", DatasetProperties.defaults()));
    }
    Side group = new Side();
    Side single = new Side();
    Side sequence = new Side();
    Side stagedGroup = new Side();
    Side stagedSingle = new Side();
    String profile;
    try {
      // one unmeasured repetition first (rep -1), then the measured ones; three publishes into
      // each dataset before that, so that every measured publish expires one snapshot (retain 3)
      for (int i = 0; i < 3; i++) {
        for (SnapshotWriter w : build(members, rows, i)) {
          w.commit();
        }
      }
      for (int rep = -1; rep < reps; rep++) {
        SnapshotDataset alone = members.get(Math.floorMod(rep, size));
        boolean groupFirst = rep % 2 == 0;
        for (int side = 0; side < 2; side++) {
          if ((side == 0) == groupFirst) {
            measure(rep, group, members, rows, ws -> publishGroup(ctx, ws));
          } else {
            measure(rep, single, List.of(alone), rows, ws -> commit(ws.get(0)));
          }
        }
        measure(rep, sequence, members, rows, ws -> {
          for (SnapshotWriter w : ws) {
            commit(w);
          }
        });
        for (int side = 0; side < 2; side++) {
          if ((side == 0) == groupFirst) {
            measureStaged(rep, stagedGroup, members, rows, ids -> publishStaged(ctx, members, ids));
          } else {
            measureStaged(rep, stagedSingle, List.of(alone), rows, ids -> published(alone.publish(ids.get(0))));
          }
        }
        for (SnapshotDataset ds : members) {
          ds.cleanup(); // untimed: keeps each data table to the retained snapshots
        }
        System.out.printf("publish group rep %d: group %.1f ms, one %.1f ms, %d in sequence %.1f ms, staged group"
            + " %.1f ms, one staged %.1f ms%n", rep, last(group), last(single), size, last(sequence),
            last(stagedGroup), last(stagedSingle));
      }
      Ratio ratio = Ratio.paired("publish group of " + size + ": one commit / the group", single.measured(),
          group.measured(), 1 / TARGET);
      profile = ratio.meetsTarget() ? null : profile(ctx, members, rows);
      return report(ctx, size, rows, reps, group, single, sequence, stagedGroup, stagedSingle, ratio, profile);
    } finally {
      for (SnapshotDataset ds : members) {
        ctx.drop(ds);
      }
    }
  }

  private static double last(Side s) {
    return s.ms.isEmpty() ? Double.NaN : s.ms.get(s.ms.size() - 1);
  }

  private interface Publish {
    void run(List<SnapshotWriter> writers) throws Exception;
  }

  private interface PublishStaged {
    void run(List<SnapshotId> staged) throws Exception;
  }

  /** An open writer in each dataset, its rows written and flushed. */
  private static List<SnapshotWriter> build(List<SnapshotDataset> datasets, long rows, int label) {
    List<SnapshotWriter> writers = new ArrayList<>();
    for (SnapshotDataset ds : datasets) {
      SnapshotWriter w = ds.newSnapshot().begin();
      writers.add(w);
      RowData.write(w, label, rows);
      w.flush();
    }
    return writers;
  }

  /** Builds a snapshot in each of {@code datasets} (untimed), then times {@code publish} of them. */
  private static void measure(int rep, Side side, List<SnapshotDataset> datasets, long rows, Publish publish)
      throws Exception {
    List<SnapshotWriter> writers = build(datasets, rows, rep + 10);
    try {
      long reads = readCalls(datasets);
      double ms = time(() -> publish.run(writers));
      if (rep >= 0) {
        side.ms.add(ms);
        side.readCalls.add((double) (readCalls(datasets) - reads));
      }
    } finally {
      writers.forEach(SnapshotWriter::close);
    }
  }

  /** Stages a snapshot in each of {@code datasets} (untimed), then times {@code publish} of them. */
  private static void measureStaged(int rep, Side side, List<SnapshotDataset> datasets, long rows,
      PublishStaged publish) throws Exception {
    List<SnapshotId> staged = new ArrayList<>();
    for (SnapshotWriter w : build(datasets, rows, rep + 10)) {
      try (w) {
        SnapshotInfo s = w.stage();
        if (s.state() != SnapshotState.STAGED) {
          throw new IllegalStateException("stage() returned " + s);
        }
        staged.add(s.id());
      }
    }
    long reads = readCalls(datasets);
    double ms = time(() -> publish.run(staged));
    if (rep >= 0) {
      side.ms.add(ms);
      side.readCalls.add((double) (readCalls(datasets) - reads));
    }
  }

  private static double time(Timed work) throws Exception {
    long start = System.nanoTime();
    work.run();
    return (System.nanoTime() - start) / 1e6;
  }

  private static long readCalls(List<SnapshotDataset> datasets) {
    return datasets.stream().mapToLong(SnapshotDataset::metadataReadCalls).sum();
  }

  private static void publishGroup(BenchContext ctx, List<SnapshotWriter> writers) {
    PublishGroup g = ctx.datasets().publishTogether();
    writers.forEach(g::writer);
    check(g.publish(), writers.size());
  }

  private static void publishStaged(BenchContext ctx, List<SnapshotDataset> datasets, List<SnapshotId> staged) {
    PublishGroup g = ctx.datasets().publishTogether();
    for (int i = 0; i < datasets.size(); i++) {
      g.staged(datasets.get(i), staged.get(i));
    }
    check(g.publish(), datasets.size());
  }

  private static void check(Map<DatasetId, SnapshotInfo> published, int members) {
    if (published.size() != members) {
      throw new IllegalStateException("a group of " + members + " published " + published.keySet());
    }
    published.values().forEach(PublishGroupBenchmark::published);
  }

  private static void commit(SnapshotWriter w) {
    published(w.commit());
  }

  private static void published(SnapshotInfo s) {
    if (s.state() != SnapshotState.COMMITTED) {
      throw new IllegalStateException("not published: " + s);
    }
  }

  /**
   * Where the group's time goes: a few more unmeasured group publishes and single commits, with a
   * thread sampling the publishing thread's stack every millisecond ({@link WallSampler}), so that
   * time spent waiting for an RPC counts too (JFR's execution samples see only running threads).
   */
  private static String profile(BenchContext ctx, List<SnapshotDataset> members, long rows) throws Exception {
    List<WallSampler.Phase> phases = List.of(
        WallSampler.Phase.method("after the commit: cleanup fences (a metadata transaction of their own, per "
            + "member)", "OperationsContext.fenceForCleanup"),
        WallSampler.Phase.method("after the commit: the build transaction's commit, per member",
            "SnapshotWriterImpl.finishBuildTransaction"),
        WallSampler.Phase.method("after the commit: lock release, per member", "LockTable.release"),
        WallSampler.Phase.method("before the transaction: prepare (flush, lease check, counts), per member",
            "SnapshotWriterImpl.prepare"),
        WallSampler.Phase.method("in the transaction: each member's publish operation (its metadata reads, "
            + "retention)", "Publication.apply", "StagedPublication.apply"),
        WallSampler.Phase.method("in the transaction: the metadata writes sent (`commitTx`, one batch per "
            + "member's table)", "TxMetaTable.commitTx"),
        new WallSampler.Phase("in the transaction: Tephra (start, conflict check, commit)",
            f -> f.getClassName().toLowerCase(java.util.Locale.ROOT).contains("tephra")
                || f.getClassName().endsWith("TxClient")));
    WallSampler groupSamples = new WallSampler(Thread.currentThread(), phases);
    WallSampler singleSamples = new WallSampler(Thread.currentThread(), phases);
    try {
      for (int i = 0; i < PROFILE_REPS; i++) {
        List<SnapshotWriter> ws = build(members, rows, 100 + i);
        try {
          groupSamples.during(() -> publishGroup(ctx, ws));
        } finally {
          ws.forEach(SnapshotWriter::close);
        }
        List<SnapshotWriter> one = build(List.of(members.get(i % members.size())), rows, 100 + i);
        try {
          singleSamples.during(() -> commit(one.get(0)));
        } finally {
          one.forEach(SnapshotWriter::close);
        }
      }
    } finally {
      groupSamples.close();
      singleSamples.close();
    }
    return WallSampler.compare("(a) group of " + members.size() + ": share, ms a publish", groupSamples,
        "(b) one `commit()`: share, ms a publish", singleSamples);
  }

  private Section report(BenchContext ctx, int size, long rows, int reps, Side group, Side single, Side sequence,
      Side stagedGroup, Side stagedSingle, Ratio ratio, String profile) {
    Section section = new Section(title());
    section.ratio(ratio);
    Ratio stagedRatio = Ratio.paired("publish group of " + size + " staged: one publish(staged) / the group",
        stagedSingle.measured(), stagedGroup.measured(), Double.NaN);
    section.ratio(stagedRatio);
    section.text(size + " datasets (default properties: retain 3, so every measured publish expires one "
        + "snapshot, as in a steady state). Each repetition builds a snapshot of " + Format.rows(rows) + " rows ("
        + RowData.COLUMNS + " columns of " + RowData.VALUE_BYTES + " bytes) in each dataset that publishes, its "
        + "rows flushed, before the clock starts, so each figure is the publish alone (as item 3's). Timed: (a) "
        + "`datasets.publishTogether().writer(w1)...writer(w" + size + ").publish()` of " + size + " open writers; "
        + "(b) one `commit()` of one writer, the baseline; (c) " + size + " `commit()`s one after another, for "
        + "context; (d) `publishTogether().staged(ds, id)...publish()` of " + size + " snapshots staged by "
        + "`stage()` (staging untimed) against (e) one `dataset.publish(stagedId)`. (a) and (b) run back to back, "
        + "in alternating order, as do (d) and (e); each ratio is the median of " + reps + " paired ratios, after "
        + "one unmeasured repetition. Target (issue 39): (a) at most " + Format.ratio(TARGET) + " (b), i.e. one "
        + "commit / the group at least " + Format.ratio(1 / TARGET) + " in the summary (higher is better there). "
        + "Metadata reads: the read calls (gets, batches, scans) of the members' metadata stores during the timed "
        + "publish, median.");
    Ratio groupOverOne = Ratio.paired("", group.measured(), single.measured(), TARGET);
    Ratio sequenceOverOne = Ratio.paired("", sequence.measured(), single.measured(), Double.NaN);
    Ratio stagedOverOne = Ratio.paired("", stagedGroup.measured(), stagedSingle.measured(), Double.NaN);
    MarkdownTable table = new MarkdownTable("publish", "latency", "metadata reads", "against its baseline",
        "spread", "target");
    table.row("(a) group of " + size + " open writers", group.measured().describe(Format::number),
        Format.number(group.medianReads()), Format.ratio(groupOverOne.value()) + " (b)",
        Spread.paired(group.measured(), single.measured(), groupOverOne),
        ratio.meetsTarget() ? "met (<= " + Format.ratio(TARGET) + ")" : "**missed** (> " + Format.ratio(TARGET) + ")");
    table.row("(b) one `commit()`", single.measured().describe(Format::number), Format.number(single.medianReads()),
        "", "", "");
    table.row("(c) " + size + " `commit()`s in sequence", sequence.measured().describe(Format::number),
        Format.number(sequence.medianReads()), Format.ratio(sequenceOverOne.value()) + " (b)",
        Spread.paired(sequence.measured(), single.measured(), sequenceOverOne), "");
    table.row("(d) group of " + size + " staged", stagedGroup.measured().describe(Format::number),
        Format.number(stagedGroup.medianReads()), Format.ratio(stagedOverOne.value()) + " (e)",
        Spread.paired(stagedGroup.measured(), stagedSingle.measured(), stagedOverOne), "");
    table.row("(e) one `publish(stagedId)`", stagedSingle.measured().describe(Format::number),
        Format.number(stagedSingle.medianReads()), "", "", "");
    section.table(table);
    section.text("The group (a) also took " + Format.ratio(Stats.median(Ratio.pairs(group.measured(),
        sequence.measured()))) + " the time of " + size + " single commits in sequence (c), median of the paired "
        + "ratios.");
    if (profile != null) {
      section.text("Target missed: " + PROFILE_REPS + " more publishes of each, (a) and (b), unmeasured, with the "
          + "publishing thread's stack sampled every millisecond (wall time: waiting for an RPC counts); each "
          + "sample is filed under the first phase in the table's order that is on its stack:");
      section.text(profile);
    }
    return section;
  }
}
