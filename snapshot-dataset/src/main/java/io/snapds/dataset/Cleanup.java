package io.snapds.dataset;

import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.CleanupProgress;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionSystemClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the rows of expired and aborted snapshots, safely.
 *
 * <p>An expired snapshot may still be read by a transaction that started before the expiry was
 * committed. So each expired snapshot first gets a <em>cleanup fence</em>: the id of a
 * transaction that saw it expired, and hence started after the expiry committed. Its rows are
 * deleted once every transaction in progress that may read the dataset is newer than the fence
 * (Tephra's in-progress list, less this dataset's own building transactions and other
 * applications' long transactions: see {@code Probe}), and no reader pin holds it. Before the
 * first delete it marks the snapshot as being cleaned, so a reader that outlived its protection
 * fails instead of reading a short result. Aborted snapshots were never visible and go at once.
 * The deletes run region by region on a bounded pool and are recorded as they finish
 * ({@link RangeCleaner}), so an interrupted cleanup resumes where it stopped.
 *
 * <p>Dead writers are found here too: a snapshot still BUILDING whose building transaction is no
 * longer in progress (it timed out or its client died) is aborted. Once an aborted writer's rows
 * are gone, its transaction leaves Tephra's invalid list, so that list does not grow forever.
 */
final class Cleanup {
  private static final Logger LOG = LoggerFactory.getLogger(Cleanup.class);
  private static final int DELETE_BATCH = 1000;

  private final DatasetId dataset;
  private final MetadataStore store;
  private final DataTable data;
  private final LockTable locks;
  private final TransactionSystemClient txClient;
  private final Clock clock;
  private final MetadataPruner pruner;
  private final RangeCleaner ranges;
  private final EmptyRegionMerger merger;
  private final DatasetMetrics metrics;

  /** One cleanup of the dataset of {@code ops}, with its parts (all stateless: one per run costs nothing). */
  Cleanup(OperationsContext ops) {
    this.dataset = ops.id();
    this.store = ops.store();
    this.data = ops.data();
    this.locks = ops.locks();
    this.txClient = ops.txClient();
    this.clock = ops.clock();
    this.metrics = ops.metrics();
    this.ranges = new RangeCleaner(dataset, store, data, ops.properties().cleanupThreads(), DELETE_BATCH);
    this.pruner = new MetadataPruner(dataset, store, ops.properties(), locks);
    this.merger = new EmptyRegionMerger(dataset, store, ops.connection(), ops.properties().mergeEmptyRegions(),
        EmptyRegionMerger.BUDGET);
  }

  /**
   * After an expiry committed: gives what it expired a cleanup fence (in a later transaction).
   * Deferrable: when it loses every race of its short budget, the next cleanup sets the fences
   * (its first step fences every snapshot awaiting cleanup that has none), so the expiry that
   * committed is not reported as failed, nor held up for the whole {@code commit.retries}.
   */
  static void fenceAfter(OperationsContext ops, List<SnapshotInfo> expired) {
    if (expired.isEmpty()) {
      return;
    }
    try {
      ops.store().updateDeferrable("mark cleanup fences", view -> {
        fence(view);
        return null;
      });
    } catch (CommitConflictException e) {
      LOG.info("dataset {}: setting the cleanup fences of {} snapshots conflicted on every attempt; the next "
          + "cleanup sets them", ops.id(), expired.size());
    }
  }

  /** The fencing rule: each snapshot awaiting cleanup without a fence gets this transaction's id. */
  static void fence(MetadataView view) {
    for (SnapshotInfo s : view.awaitingCleanup()) {
      if (s.cleanupFence() == 0) {
        view.putSnapshot(s.toBuilder().cleanupFence(view.transaction().getWritePointer()).build());
      }
    }
  }

  /** Snapshots still BUILDING whose building transaction is gone are aborted; returns their ids. */
  static List<SnapshotId> abortDeadWriters(MetadataView view) {
    List<SnapshotId> found = new ArrayList<>();
    for (SnapshotInfo s : view.building()) {
      if (!view.transaction().isInProgress(s.id().value())) {
        found.add(s.id());
        view.putSnapshot(s.toBuilder().state(SnapshotState.ABORTED).build());
      }
    }
    fence(view);
    return found;
  }

  /**
   * The cleanup-eligibility rule: a fenced snapshot awaiting cleanup whose readers are gone
   * (aborted ones never had any; expired ones once every possible reader in progress is newer than
   * the fence) and that no reader pin holds.
   */
  static boolean eligible(SnapshotInfo s, long oldestReader, int livePins) {
    if (!needsCleanup(s) || s.cleanupFence() == 0) {
      return false;
    }
    boolean readersGone = s.state() == SnapshotState.ABORTED || oldestReader > s.cleanupFence();
    return readersGone && livePins == 0;
  }

  CleanupResult run(CleanupListener listener) {
    // a step the next run redoes: a conflict on every attempt of its short budget (steady
    // publishing fences the same records) leaves dead writers and fences to it instead of
    // failing the deletes below
    List<SnapshotId> dead = untilNextRun("abort dead writers",
        () -> store.updateDeferrable("abort dead writers", Cleanup::abortDeadWriters), List.of());
    dead.forEach(id -> LOG.warn("dataset {}: snapshot {} was left BUILDING by a writer that is gone; aborted",
        dataset, id));
    endFinishedBuilds();

    // a fresh transaction: what is in progress now, and what the metadata says now
    Probe probe = store.read(view -> Probe.of(view, true));
    List<SnapshotId> cleaned = new ArrayList<>();
    List<SnapshotKeys> cleanedKeys = new ArrayList<>();
    Set<SnapshotId> withProgress = new HashSet<>();
    List<SnapshotId> deferred = new ArrayList<>();
    // the backlog gauges: what this run's probe found still waiting, and for what (nothing read for it)
    List<Map.Entry<DatasetMetrics.Waiting, Long>> waiting = new ArrayList<>();
    long rows = 0;
    for (SnapshotInfo s : probe.awaiting()) {
      if (!needsCleanup(s)) {
        continue;
      }
      if (s.cleanupFence() == 0) {
        waiting.add(Map.entry(DatasetMetrics.Waiting.FENCE, s.rowCount()));
        continue;
      }
      int pins = locks.livePins(s.id());
      if (eligible(s, probe.oldestReader(), pins)) {
        if (s.state() != SnapshotState.ABORTED) {
          // before the first delete: a reader that outlived its protection checks this mark
          // after reading, and fails instead of returning what is left (CleanedCheck)
          locks.markCleaning(s.id());
        }
        RangeCleaner.Cleaned done = ranges.clean(s.keys(), probe.progress(s.id()), listener);
        forgetAttempts(s.id());
        rows += done.rows();
        cleaned.add(s.id());
        cleanedKeys.add(s.keys());
        if (done.progressRow()) {
          withProgress.add(s.id());
        }
      } else {
        deferred.add(s.id());
        waiting.add(Map.entry(pins > 0 ? DatasetMetrics.Waiting.PIN : DatasetMetrics.Waiting.TRANSACTION, s.rowCount()));
      }
    }
    metrics.backlog(waiting);
    if (!cleaned.isEmpty()) {
      untilNextRun("record cleanup", () -> store.updateDeferrable("record cleanup", view -> {
        // every commit writes the pointer row, so this one races each publish: its reads take one
        // call however many snapshots it records, or its window grows with them until it loses
        // every race under steady publishing (and the next run has more to record)
        for (SnapshotInfo s : view.snapshots(cleaned)) {
          view.putSnapshot(s.toBuilder().cleanedAt(view.commitTime()).build());
        }
        // done: their progress rows go, only for those that may have one. Reading every cleaned
        // snapshot's row in this commit, which races steady publishing, slowed each cleanup there
        // to about 20 s (CurrentMeansCurrentWhenPinnedIT: over 9 min against 37 s without)
        view.cleanupProgress(withProgress); // fetched in one call; the removals below compare against it
        withProgress.forEach(id -> view.putCleanupProgress(id, CleanupProgress.NONE));
        return null;
      }));
    }
    rows += sweep(cleanedKeys);
    int merges = merger.run(cleanedKeys); // best effort: the regions no live snapshot holds any more become one
    metrics.cleaned(cleaned.size(), rows, merges);
    List<Long> truncated = truncateInvalid(probe, cleaned);
    untilNextRun("trim the metadata", () -> pruner.run(probe.invalids()));
    forgetCleaningMarks();
    return new CleanupResult(cleaned, rows, deferred, dead, truncated);
  }

  /**
   * Deletes the rows no snapshot owns: those in the numbered key zone between the live snapshots
   * (retained, BUILDING, STAGED, awaiting cleanup), below the next key number. A fenced or aborted writer
   * that kept writing after its range was cleaned leaves its rows there, and so does a writer or
   * cleaner of an earlier incarnation of the dataset (a truncate carries the counter over, so
   * their numbers lie below the new ones). Never a BUILDING range, and never at or above the
   * counter read here, where every build begun after this read writes. The ranges this run just
   * cleaned are left to the next run (they were just deleted; scanning their delete markers again
   * would find nothing). Returns the rows deleted.
   */
  private long sweep(List<SnapshotKeys> cleanedNow) {
    EmptyRegionMerger.Live live = store.read(EmptyRegionMerger::live);
    // a dataset dropped and created again while this run swept numbers from 1 again: before each
    // gap, the live snapshot numbered highest must still be there, with the counter not below
    Optional<SnapshotKeys> anchor = live.keys().stream().filter(k -> k.number() > 0)
        .max(java.util.Comparator.comparingLong(SnapshotKeys::number));
    long rows = 0;
    for (EmptyRegionMerger.Gap gap : EmptyRegionMerger.numberedGaps(live.keys(), cleanedNow, live.lastKeyNumber())) {
      boolean same = store.read(view -> view.lastKeyNumber() >= live.lastKeyNumber() && anchor.map(k ->
          view.snapshots(List.of(k.id())).stream().anyMatch(s -> s.keyNumber() == k.number())).orElse(true));
      if (!same) {
        LOG.warn("dataset {}: the dataset changed under this cleanup (dropped and created again?); its sweep stops",
            dataset);
        return rows;
      }
      long found = data.deleteRows(gap.start(), gap.stop(), DELETE_BATCH);
      if (found > 0) {
        LOG.warn("dataset {}: deleted {} rows in {} that no snapshot owns (a fenced or aborted writer, or one of an "
            + "earlier incarnation, wrote them after their range was cleaned)", dataset, found, gap);
      }
      rows += found;
    }
    return rows;
  }

  private List<Long> truncateInvalid(Probe probe, List<SnapshotId> cleaned) {
    Set<Long> invalid = new HashSet<>();
    for (long t : probe.invalids()) {
      invalid.add(t);
    }
    List<Long> truncate = new ArrayList<>();
    for (SnapshotId id : cleaned) {
      if (probe.aborted(id)
          && invalid.contains(id.value())) {
        truncate.add(id.value());
      }
    }
    // published snapshots' building transactions wrote nothing transactional: the invalid list
    // has no reason to keep them (a writer that died after publishing leaves its one there)
    for (SnapshotId id : probe.published()) {
      if (invalid.contains(id.value())) {
        truncate.add(id.value());
      }
    }
    if (!truncate.isEmpty()) {
      txClient.truncateInvalidTx(new HashSet<>(truncate));
    }
    return truncate;
  }

  /**
   * Ends the building transactions of published snapshots that are still in progress: their
   * writer died (or stalled) after the publish committed. Left alone, each would count as a
   * reader of every dataset until it timed out, and then sit in the invalid list. Reads the
   * records of the transactions in progress (one call), whatever the history.
   */
  private void endFinishedBuilds() {
    List<SnapshotInfo> finished = store.read(view -> {
      List<SnapshotId> inProgress = new ArrayList<>();
      for (long id : view.transaction().getInProgress()) {
        inProgress.add(SnapshotId.of(id));
      }
      return view.snapshots(inProgress).stream()
          .filter(s -> s.state() != SnapshotState.BUILDING && s.state() != SnapshotState.ABORTED).toList();
    });
    for (SnapshotInfo s : finished) {
      LOG.info("dataset {}: snapshot {} is {} but its building transaction is still open; ending it",
          dataset, s.id(), s.state());
      txClient.invalidate(s.id().value());
    }
  }

  /**
   * Drops the cleaning marks of snapshots whose records the history horizon deleted, so the lock
   * table stays as small as the metadata, after raising the watermark above them (in the same
   * atomic mutation of the cleaning row): a reader of such a snapshot then finds it at or below the
   * watermark, asks its record, finds it gone, and fails instead of returning a short result. The
   * watermark also rises to the horizon ({@code horizon.id}), which covers records trimmed while
   * there was none (an earlier version dropped their marks without one); with no watermark at all
   * (the first run, or a lock table truncated or restored, which lost marks) to the newest cleaned
   * record too. Reads the cleaning row, the pointer row, the {@code d} index when there is no
   * watermark, and one record per mark past the horizon (the few the last trim removed).
   */
  private void forgetCleaningMarks() {
    LockTable.CleaningMarks found = locks.cleaningMarks();
    Forget forget = store.read(view -> {
      List<SnapshotId> gone = found.marks().stream()
          .filter(id -> view.pastHorizon(id) && view.snapshot(id).isEmpty()).toList();
      long below = Math.max(found.below().orElse(0L), view.horizonId());
      if (found.below().isEmpty()) {
        below = Math.max(below, view.newestCleaned().map(SnapshotId::value).orElse(0L));
      }
      for (SnapshotId id : gone) {
        below = Math.max(below, id.value());
      }
      return new Forget(gone, below);
    });
    if (forget.gone().isEmpty() && found.below().equals(Optional.of(forget.below()))) {
      return;
    }
    if (!locks.forgetCleaning(forget.below(), forget.gone(), found.below())) {
      LOG.info("dataset {}: another cleanup moved the cleaning watermark; the next run forgets these marks", dataset);
    }
  }

  /** The marks to drop, and the watermark that covers them. */
  private record Forget(List<SnapshotId> gone, long below) {}

  /**
   * Runs a step whose work the next cleanup redoes if it is not done: recording what was
   * deleted (the next run deletes nothing more and records it) and trimming the metadata. Under
   * steady publishing such a step can conflict on every retry, since every commit writes the
   * pointer row; that must not fail a cleanup whose deletes are done. Its commits are
   * {@linkplain MetadataStore#updateDeferrable deferrable}: a short budget of retries, so that a
   * run racing a publishing loop does not wait out {@code commit.retries} on every step.
   */
  private void untilNextRun(String step, Runnable action) {
    untilNextRun(step, () -> {
      action.run();
      return null;
    }, null);
  }

  private <T> T untilNextRun(String step, java.util.function.Supplier<T> action, T otherwise) {
    try {
      return action.get();
    } catch (CommitConflictException e) {
      LOG.info("dataset {}: '{}' conflicted with writers on every attempt; the next cleanup does it", dataset, step);
      return otherwise;
    }
  }

  /**
   * Why each snapshot awaiting cleanup is (or is not) deleted by the next run: the eligibility rule
   * of {@link #eligible}, explained. Reads as a cleanup run's probe does, and the live pins of each.
   */
  static List<DatasetStatus.Backlog> backlog(MetadataView view, LockTable locks) {
    Probe probe = Probe.of(view, false); // status needs no progress rows
    Optional<Long> oldest = probe.oldestReader() == Long.MAX_VALUE ? Optional.empty()
        : Optional.of(probe.oldestReader());
    List<DatasetStatus.Backlog> backlog = new ArrayList<>();
    for (SnapshotInfo s : probe.awaiting()) {
      if (!needsCleanup(s)) {
        continue;
      }
      int pins = locks.livePins(s.id());
      DatasetStatus.Wait wait;
      if (s.cleanupFence() == 0) {
        wait = DatasetStatus.Wait.FENCE;
      } else if (pins > 0) {
        wait = DatasetStatus.Wait.PINS;
      } else if (!eligible(s, probe.oldestReader(), pins)) {
        wait = DatasetStatus.Wait.READERS;
      } else {
        wait = DatasetStatus.Wait.NOTHING;
      }
      backlog.add(new DatasetStatus.Backlog(s, wait, pins, oldest));
    }
    return backlog;
  }

  /**
   * Removes what {@code snapshot}'s publish left of its attempts' records (one that outlived it, or
   * a build that never published), best effort: they expire anyway (their TTL), and a failure here
   * must not fail the run that deleted the rows.
   */
  private void forgetAttempts(SnapshotId snapshot) {
    try {
      locks.forgetAttempts(snapshot);
    } catch (RuntimeException e) {
      LOG.info("dataset {}: the attempt records of snapshot {} are left to expire: {}", dataset, snapshot, e.toString());
    }
  }

  static boolean needsCleanup(SnapshotInfo s) {
    return (s.state() == SnapshotState.EXPIRED || s.state() == SnapshotState.ABORTED) && s.cleanedAt().isEmpty();
  }

  /**
   * What a fresh transaction sees: the snapshots awaiting cleanup, the published ones (retained or
   * expired and not yet cleaned), and the oldest transaction in progress that may read this
   * dataset. Not readers: this dataset's own building transactions (every snapshot id is one; they
   * only write), and long transactions older than the oldest short one (other applications' long
   * jobs; a long transaction that reads this dataset holds a reader pin, see
   * {@code SnapshotDataset.startTx}).
   */
  /**
   * What one cleanup run reads in one transaction: the snapshots awaiting cleanup, how far an
   * earlier run got with each fenced one (its {@code q} row: read here rather than in a transaction
   * of its own per snapshot; a progress row another run writes meanwhile at worst has a piece
   * deleted twice, deletes being idempotent), the published ones, the oldest possible reader and
   * the invalid list.
   */
  private record Probe(List<SnapshotInfo> awaiting, Map<SnapshotId, CleanupProgress> progress,
      List<SnapshotId> published, long oldestReader, long[] invalids) {
    /** {@code withProgress}: also read the progress rows (one get per fenced snapshot), which only a run needs. */
    static Probe of(MetadataView view, boolean withProgress) {
      Transaction tx = view.transaction();
      List<SnapshotInfo> awaiting = view.awaitingCleanup();
      Map<SnapshotId, CleanupProgress> progress = new HashMap<>();
      if (withProgress) { // in one call, however many
        progress.putAll(view.cleanupProgress(awaiting.stream()
            .filter(s -> needsCleanup(s) && s.cleanupFence() != 0).map(SnapshotInfo::id).toList()));
      }
      List<SnapshotId> published = new ArrayList<>();
      view.retained().forEach(s -> published.add(s.id()));
      view.staged().forEach(s -> published.add(s.id()));
      awaiting.stream().filter(s -> s.state() == SnapshotState.EXPIRED).forEach(s -> published.add(s.id()));
      return new Probe(awaiting, progress, published, oldestReader(view, tx), tx.getInvalids());
    }

    CleanupProgress progress(SnapshotId id) {
      return progress.getOrDefault(id, CleanupProgress.NONE);
    }

    /** One record read per short transaction in progress (a handful), never the whole history. */
    private static long oldestReader(MetadataView view, Transaction tx) {
      long firstShort = tx.getFirstShortInProgress();
      for (long id : tx.getInProgress()) { // ascending
        if (id >= firstShort && view.snapshot(SnapshotId.of(id)).isEmpty()) {
          return id;
        }
      }
      return Long.MAX_VALUE;
    }

    boolean aborted(SnapshotId id) {
      return awaiting.stream().anyMatch(s -> s.id().equals(id) && s.state() == SnapshotState.ABORTED);
    }
  }
}
