package io.snapds.dataset.store;

import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** The current pointer, its history (rows {@code h}) and the history horizon. */
public interface HistoryView {
  Optional<SnapshotId> current();

  Optional<SnapshotInfo> currentInfo();

  /** Makes {@code id} current and appends a history entry at {@link MetadataView#commitTime()}. */
  void moveCurrent(SnapshotId id, String reason);

  /** The changes of the current pointer the horizon keeps, oldest first. */
  List<HistoryEntry> history();

  /** The newest history entry at or before {@code time}. */
  Optional<HistoryEntry> currentAt(Instant time);

  /** The time of the newest history entry the horizon deleted, if it deleted any. */
  Optional<Instant> historyHorizon();

  /** True when {@code id} is at or below the newest snapshot whose record the horizon deleted. */
  boolean pastHorizon(SnapshotId id);

  /** The newest snapshot id whose record the horizon deleted (pointer row {@code horizon.id}), 0 if none. */
  long horizonId();

  /**
   * Deletes what lies past the history horizon: history entries beyond the newest
   * {@code keepLast} that are older than {@code maxAge} (if given), and likewise the records of
   * cleaned snapshots with their run-id, source-key and (when no writer of the key is left)
   * fence rows; then physically purges rows whose deletion every transaction already sees.
   *
   * @param lockOfSource the lock name of a source key, for its fence row
   */
  HorizonTrim trimToHorizon(int keepLast, Optional<Duration> maxAge, Function<String, String> lockOfSource);

  /** What {@link #trimToHorizon} removed: history entries, snapshot records, rows purged. */
  record HorizonTrim(int historyEntries, int snapshotRecords, int rowsPurged, List<String> locksFreed) {
    /**
     * @param locksFreed the locks (of source keys) whose fence row went with their last record: no
     *     snapshot of the key is left to fence, so their lock-table rows may go too
     */
    public HorizonTrim {
      locksFreed = List.copyOf(locksFreed);
    }
  }
}
