package io.snapds.cli.demo;

import io.snapds.cli.output.HistoryTable;
import io.snapds.cli.output.TextTable;
import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.lock.LockSettings;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/**
 * The main job, end to end: concurrent jobs share the builds of their source keys through the
 * lock table while a reader checks every snapshot it pins; then retention, a rollback and a
 * cleanup run under the reader too. Prints what happened and returns the verdict.
 */
public final class Demo {
  /** How much later each next source key's jobs start. */
  private static final Duration SLICE_DELAY = Duration.ofMillis(700);

  private final SnapshotDatasets datasets;
  private final PrintWriter out;

  public Demo(SnapshotDatasets datasets, PrintWriter out) {
    this.datasets = datasets;
    this.out = out;
  }

  /** What to run: the dataset (dropped and created again), the jobs, their source keys, rows per build. */
  public record Settings(DatasetId dataset, int jobs, List<String> sourceKeys, int rows) {
    public Settings {
      sourceKeys = List.copyOf(sourceKeys);
      if (jobs < 1 || sourceKeys.isEmpty() || rows < 1) {
        throw new IllegalArgumentException("the demo needs jobs >= 1, source keys and rows >= 1, got jobs="
            + jobs + ", keys=" + sourceKeys + ", rows=" + rows);
      }
    }
  }

  public DemoResult run(Settings s) throws InterruptedException {
    List<String> problems = new ArrayList<>();
    prepare(s);
    ConsistencyReader reader = new ConsistencyReader(datasets, s.dataset());
    Thread readerThread = new Thread(reader, "demo-reader");
    readerThread.start();

    List<JobOutcome> outcomes = runJobs(s);
    printJobs(outcomes);
    problems.addAll(checkSharedBuilds(outcomes));

    try (SnapshotDataset ds = datasets.open(s.dataset())) {
      List<SnapshotInfo> expired = ds.expireSnapshots().retainLast(2).commit();
      out.printf("%nretention: keep the newest 2: expired %s%n", ids(expired));
      rollbackOnce(ds).ifPresentOrElse(p -> out.printf("rollback: %s%n", p),
          () -> problems.add("no retained snapshot to roll back to"));
      long readsBefore = reader.reads();
      awaitReads(reader, readsBefore + 3, readerThread);
      CleanupResult cleaned = ds.cleanup();
      out.printf("cleanup: deleted the rows of %s (%,d rows)%s%n", cleaned.cleaned(), cleaned.rowsDeleted(),
          cleaned.deferred().isEmpty() ? "" : "; deferred " + cleaned.deferred() + " (a reader may still see them)");
      reader.stop();
      readerThread.join();
      out.printf("%nhistory of %s%n", s.dataset());
      HistoryTable.print(out, ds.snapshots(), ds.currentSnapshot().map(SnapshotInfo::id));
    }
    reader.failure().ifPresent(f -> problems.add("the reader failed: " + f));
    DemoResult result = new DemoResult(reader.reads(), reader.snapshotsSeen().size(), reader.torn(), problems);
    printVerdict(result);
    return result;
  }

  private void prepare(Settings s) {
    if (datasets.exists(s.dataset())) {
      datasets.admin(s.dataset()).drop();
    }
    LockSettings locks = LockSettings.builder().leaseDuration(Duration.ofSeconds(15))
        .acquireTimeout(Duration.ofMinutes(2)).maxWaiters(Math.max(20, s.jobs())).build();
    // retention keeps every snapshot of this round: a key whose snapshot retention expired while
    // other jobs of the key still waited would be built again (an expired snapshot is not reused)
    datasets.create(s.dataset(), DatasetProperties.builder().families(DemoData.FAMILY)
        .retention(RetentionPolicy.retainLast(s.sourceKeys().size() + 1)).lockSettings(locks).build()).close();
    out.printf("dataset %s created; %d jobs over %d source keys %s, %,d rows per build; "
        + "a reader checks every snapshot it pins%n%n", s.dataset(), s.jobs(), s.sourceKeys().size(),
        s.sourceKeys(), s.rows());
    out.flush();
  }

  private List<JobOutcome> runJobs(Settings s) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(s.jobs());
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<JobOutcome>> futures = new ArrayList<>();
      for (int i = 0; i < s.jobs(); i++) {
        int slice = i % s.sourceKeys().size();
        futures.add(pool.submit(new DemoJob(i + 1, datasets, s.dataset(), s.sourceKeys().get(slice), s.rows(), start,
            SLICE_DELAY.multipliedBy(slice))));
      }
      start.countDown();
      List<JobOutcome> outcomes = new ArrayList<>();
      for (Future<JobOutcome> f : futures) {
        try {
          outcomes.add(f.get());
        } catch (ExecutionException e) {
          throw new IllegalStateException("a demo job failed unexpectedly", e.getCause());
        }
      }
      return outcomes;
    } finally {
      pool.shutdownNow();
    }
  }

  private void printJobs(List<JobOutcome> outcomes) {
    TextTable table = new TextTable("JOB", "SOURCE KEY", "DID", "SNAPSHOT", "TOOK");
    for (JobOutcome o : outcomes) {
      table.row(o.job(), o.sourceKey(), o.failed() ? "FAILED: " + o.error() : o.built() ? "built" : "reused",
          o.snapshot() == null ? "-" : o.snapshot(), String.format("%.1f s", o.took().toMillis() / 1000.0));
    }
    table.print(out);
    long built = outcomes.stream().filter(JobOutcome::built).count();
    out.printf("%d built, %d reused, %d failed%n", built,
        outcomes.stream().filter(o -> !o.built() && !o.failed()).count(),
        outcomes.stream().filter(JobOutcome::failed).count());
  }

  /** Each source key built exactly once, and every job of a key got the same snapshot. */
  static List<String> checkSharedBuilds(List<JobOutcome> outcomes) {
    List<String> problems = new ArrayList<>();
    Map<String, List<JobOutcome>> byKey = outcomes.stream()
        .collect(Collectors.groupingBy(JobOutcome::sourceKey));
    byKey.forEach((key, jobs) -> {
      jobs.stream().filter(JobOutcome::failed).forEach(j -> problems.add("job " + j.job() + " failed: " + j.error()));
      long built = jobs.stream().filter(JobOutcome::built).count();
      if (built != 1) {
        problems.add("source key " + key + " was built " + built + " times");
      }
      long distinct = jobs.stream().filter(j -> !j.failed()).map(JobOutcome::snapshot).distinct().count();
      if (distinct > 1) {
        problems.add("jobs of source key " + key + " got " + distinct + " different snapshots");
      }
    });
    return problems;
  }

  private static Optional<String> rollbackOnce(SnapshotDataset ds) {
    Optional<SnapshotId> current = ds.currentSnapshot().map(SnapshotInfo::id);
    for (SnapshotInfo s : ds.retainedSnapshots()) {
      if (current.isPresent() && !s.id().equals(current.get())) {
        SnapshotInfo now = ds.rollbackTo(s.id()).commit();
        return Optional.of("current snapshot is now " + now.id() + " (" + now.sourceKey().orElse("-")
            + "), was " + current.get());
      }
    }
    return Optional.empty();
  }

  /** Lets the reader read the rolled-back state a few times before cleanup runs. */
  private static void awaitReads(ConsistencyReader reader, long reads, Thread readerThread) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (reader.reads() < reads && readerThread.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  private void printVerdict(DemoResult r) {
    out.println();
    if (r.consistent()) {
      out.printf("reader: %,d reads of %d snapshots, all consistent%n", r.reads(), r.snapshotsRead());
    } else {
      out.printf("reader: %,d reads of %d snapshots, %d TORN%n", r.reads(), r.snapshotsRead(), r.torn().size());
      r.torn().stream().limit(10).forEach(t -> out.println("  " + t));
    }
    r.problems().forEach(p -> out.println("problem: " + p));
    out.flush();
  }

  private static List<String> ids(List<SnapshotInfo> snapshots) {
    return snapshots.stream().map(i -> i.id() + " (" + i.sourceKey().orElse("-") + ")").toList();
  }
}
