package io.snapds.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Item 4: replacing a whole dataset several times, ours against the ways people do it without
 * snapshots, with a reader running all along. For each: the time until the new version is
 * visible, what the reader saw, and what storage is left.
 */
final class ReplaceBenchmark implements Benchmark {
  @Override
  public String title() {
    return "4. Replacing a whole dataset: ours vs the alternatives";
  }

  @Override
  public Section run(BenchContext ctx) throws Exception {
    long rows = ctx.scale().replaceRows();
    int rounds = ctx.scale().replaceRounds();
    List<ReplaceStrategy> strategies = List.of(new SnapshotReplace(ctx), new DeleteThenWriteReplace(ctx),
        new TwoTableReplace(ctx), new VersionsReplace(ctx));
    MarkdownTable table = new MarkdownTable("approach", "time until the new version is visible", "reads (per s)",
        "complete", "torn (2 versions)", "partial (rows missing)", "empty", "failed", "left in the tables (normal scan)",
        "stored (raw scan, before compaction)", "stored after a major compaction");
    MarkdownTable how = new MarkdownTable("approach", "how");
    List<String> names = new ArrayList<>();
    List<Double> visibleSeconds = new ArrayList<>();
    List<Double> badReadsPercent = new ArrayList<>();
    for (ReplaceStrategy s : strategies) {
      try (s) {
        s.setUp(rows, 0);
        List<Double> visibleMs = new ArrayList<>();
        ConcurrentReader.Tally tally;
        ConcurrentReader reader = new ConcurrentReader(s, rows).start();
        long readStart = System.nanoTime();
        try {
          for (int label = 1; label <= rounds; label++) {
            long start = System.nanoTime();
            s.replace(rows, label);
            visibleMs.add((System.nanoTime() - start) / 1e6);
            if (s instanceof SnapshotReplace ours) {
              ours.cleanup();
            }
          }
        } finally {
          tally = reader.finish();
        }
        double readSeconds = (System.nanoTime() - readStart) / 1e9;
        // the last version must be what a reader sees now
        ReadSample last = s.read(sampleKeys(rows));
        if (!last.complete() || !last.labels().contains(rounds)) {
          throw new IllegalStateException(s.name() + ": after the run a reader saw " + last);
        }
        ReplaceStrategy.Storage storage = s.storage();
        Measured visible = new Measured("ms", visibleMs);
        table.row(s.name(), visible.describe(),
            tally.reads() + " (" + Format.number(tally.reads() / readSeconds) + "/s)", Long.toString(tally.complete()),
            Long.toString(tally.torn()), Long.toString(tally.partial()), Long.toString(tally.empty()),
            Long.toString(tally.errors()), storage.visible().toString(), storage.stored().toString(),
            storage.afterMajorCompaction().toString());
        how.row(s.name(), s.description());
        names.add(s.name());
        visibleSeconds.add(visible.median() / 1000);
        badReadsPercent.add(tally.reads() == 0 ? 0 : 100.0 * tally.bad() / tally.reads());
      }
    }
    Section section = new Section(title());
    section.text(Format.rows(rows) + " rows (" + RowData.COLUMNS + " columns of " + RowData.VALUE_BYTES
        + " bytes) are written, then replaced " + rounds + " times by a new version. All along, a reader thread "
        + "reads " + ConcurrentReader.SAMPLE + " keys spread evenly over the key range (one multi-get, then 2 ms "
        + "pause; its reads per second show what one read costs) and classifies each read: complete (every key, one version), torn (cells of two versions), partial "
        + "(some keys missing), empty (none found), failed (an error). The time until visible runs from the start "
        + "of a replacement until the whole new version is what readers get (the median of the " + rounds
        + " replacements). Storage counts every table the approach uses (for ours the data table, which holds every "
        + "retained snapshot: " + SnapshotReplace.RETAIN + " x " + Format.rows(rows) + " rows by design, for rollback; a "
        + "reader of the current snapshot sees " + Format.rows(rows) + "): rows and cells a normal scan finds, what a raw "
        + "all-versions scan still finds (old versions and delete markers not yet compacted away), and the same "
        + "after a major compaction.");
    section.table(how);
    section.table(table);
    section.chart(new Charts.Bars("Time until the new version is visible (median)", "seconds", names)
        .series("seconds", visibleSeconds).save(ctx.docs(), "bench-replace-time.png"), "time until visible");
    section.chart(new Charts.Bars("Reads that were not one complete version", "% of the reader's reads", names)
        .series("torn, partial, empty or failed", badReadsPercent).save(ctx.docs(), "bench-replace-reads.png"),
        "bad reads");
    return section;
  }

  private static List<byte[]> sampleKeys(long rows) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < ConcurrentReader.SAMPLE; i++) {
      keys.add(RowData.key(i * rows / ConcurrentReader.SAMPLE));
    }
    return keys;
  }
}
