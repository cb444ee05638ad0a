package io.snapds.dataset.store;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The history horizon: what lies past it is deleted, so the metadata stays small whatever the
 * publishes ever made. It spans the row groups: history entries, the records of cleaned snapshots
 * with the rows that point at them (run id, source key, and the fence when no writer of the key is
 * left), progress rows whose record is gone, and the physical purge of deleted rows. The pointer
 * row's {@code horizon.id} is the newest snapshot whose record it deleted.
 */
final class Horizon {
  private final ViewRows rows;
  private final PointerRow pointer;
  private final HistoryRows history;
  private final SnapshotRows snapshots;
  private final CleanupProgressRows progress;
  private final NameIndex runs;
  private final NameIndex sources;
  private final FenceRows fences;
  /** Locks whose fence row a trim of this view dropped. */
  private final List<String> locksFreed = new ArrayList<>();

  Horizon(ViewRows rows, PointerRow pointer, HistoryRows history, SnapshotRows snapshots,
      CleanupProgressRows progress, NameIndex runs, NameIndex sources, FenceRows fences) {
    this.rows = rows;
    this.pointer = pointer;
    this.history = history;
    this.snapshots = snapshots;
    this.progress = progress;
    this.runs = runs;
    this.sources = sources;
    this.fences = fences;
  }

  boolean pastHorizon(SnapshotId id) {
    return id.value() <= pointer.values().horizonId;
  }

  long horizonId() {
    return pointer.values().horizonId;
  }

  HistoryView.HorizonTrim trimToHorizon(int keepLast, Optional<Duration> maxAge,
      Function<String, String> lockOfSource) {
    Instant now = pointer.commitTime();
    Predicate<Instant> young = at -> maxAge.isPresent() && at.isAfter(now.minus(maxAge.get()));
    int entries = history.trim(keepLast, young);
    PointerRow.Values p = pointer.values();
    int records = 0;
    long excess = p.cleanedCount - keepLast;
    if (excess > 0) {
      for (SnapshotInfo s : snapshots.snapshots(List.copyOf(snapshots.oldestCleaned(excess)))) {
        if (s.cleanedAt().map(young::test).orElse(false)) {
          break;
        }
        dropRecord(s, lockOfSource);
        p.horizonId = Math.max(p.horizonId, s.id().value());
        records++;
      }
    }
    // progress rows whose record an earlier trim deleted: a progress record of an earlier version
    // could land after the trim, and nothing else would ever remove it (at most G + such rows)
    for (SnapshotId id : progress.recorded(1_000)) {
      if (pastHorizon(id) && snapshots.snapshot(id).isEmpty()) {
        progress.putCleanupProgress(id, CleanupProgress.NONE);
      }
    }
    return new HistoryView.HorizonTrim(entries, records, rows.purgeDeleted(), locksFreed);
  }

  private void dropRecord(SnapshotInfo s, Function<String, String> lockOfSource) {
    snapshots.drop(s.id());
    // a progress row a concurrent cleanup recorded after the snapshot was done (one get of a row
    // that is almost always absent, per record dropped): no such row outlives its record
    progress.putCleanupProgress(s.id(), CleanupProgress.NONE);
    if (s.runId().isPresent() && runs.get(s.runId().get()).equals(Optional.of(s.id()))) {
      runs.drop(s.runId().get());
    }
    if (s.sourceKey().isPresent() && sources.get(s.sourceKey().get()).equals(Optional.of(s.id()))) {
      String sourceKey = s.sourceKey().get();
      sources.drop(sourceKey);
      boolean building = snapshots.building().stream().anyMatch(b -> b.sourceKey().equals(Optional.of(sourceKey)));
      if (!building) { // no writer of that key is left to fence
        String lock = lockOfSource.apply(sourceKey);
        fences.drop(lock);
        locksFreed.add(lock);
      }
    }
  }
}
