package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The whole metadata of one dataset as one transaction sees it: the current snapshot, every
 * snapshot's record, the history of the current pointer, the run-id and source-key indexes and
 * the highest fencing token seen per lock. Immutable: an operation derives an updated state with
 * the {@code with...} methods and hands base and updated to {@link MetadataStore#commit}.
 */
public final class DatasetState {
  private static final DatasetState EMPTY = new DatasetState(0, null, ImmutableSortedMap.of(),
      ImmutableList.of(), ImmutableMap.of(), ImmutableMap.of(), ImmutableMap.of());

  private final long version;
  private final SnapshotId current;
  private final ImmutableSortedMap<SnapshotId, SnapshotInfo> snapshots;
  private final ImmutableList<HistoryEntry> history;
  private final ImmutableMap<String, SnapshotId> runIndex;
  private final ImmutableMap<String, SnapshotId> sourceIndex;
  private final ImmutableMap<String, Long> fences;

  DatasetState(long version, SnapshotId current, Map<SnapshotId, SnapshotInfo> snapshots,
      List<HistoryEntry> history, Map<String, SnapshotId> runIndex,
      Map<String, SnapshotId> sourceIndex, Map<String, Long> fences) {
    this.version = version;
    this.current = current;
    this.snapshots = ImmutableSortedMap.copyOf(snapshots);
    this.history = ImmutableList.copyOf(history);
    this.runIndex = ImmutableMap.copyOf(runIndex);
    this.sourceIndex = ImmutableMap.copyOf(sourceIndex);
    this.fences = ImmutableMap.copyOf(fences);
  }

  /** The state of a dataset that has recorded nothing yet. */
  public static DatasetState empty() {
    return EMPTY;
  }

  /** Counts commits; every commit writes version + 1, so concurrent commits conflict. */
  public long version() {
    return version;
  }

  public Optional<SnapshotId> current() {
    return Optional.ofNullable(current);
  }

  public Optional<SnapshotInfo> currentInfo() {
    return current().map(snapshots::get);
  }

  /** Every snapshot ever recorded (including expired and aborted), oldest first. */
  public ImmutableSortedMap<SnapshotId, SnapshotInfo> snapshots() {
    return snapshots;
  }

  public Optional<SnapshotInfo> snapshot(SnapshotId id) {
    return Optional.ofNullable(snapshots.get(id));
  }

  /** Committed snapshots, newest first. */
  public List<SnapshotInfo> retained() {
    List<SnapshotInfo> out = new ArrayList<>();
    for (SnapshotInfo s : snapshots.descendingMap().values()) {
      if (s.state() == SnapshotState.COMMITTED) {
        out.add(s);
      }
    }
    return out;
  }

  /** Changes of the current pointer, oldest first. */
  public ImmutableList<HistoryEntry> history() {
    return history;
  }

  public Optional<SnapshotId> snapshotForRun(String runId) {
    return Optional.ofNullable(runIndex.get(runId));
  }

  public Optional<SnapshotId> snapshotForSource(String sourceKey) {
    return Optional.ofNullable(sourceIndex.get(sourceKey));
  }

  ImmutableMap<String, SnapshotId> runIndex() {
    return runIndex;
  }

  ImmutableMap<String, SnapshotId> sourceIndex() {
    return sourceIndex;
  }

  /** Highest fencing token recorded for a lock, 0 if none. */
  public long fence(String lockName) {
    return fences.getOrDefault(lockName, 0L);
  }

  ImmutableMap<String, Long> fences() {
    return fences;
  }

  public DatasetState withSnapshot(SnapshotInfo info) {
    checkNotNull(info, "info");
    Map<SnapshotId, SnapshotInfo> m = new TreeMap<>(snapshots);
    m.put(info.id(), info);
    return new DatasetState(version, current, m, history, runIndex, sourceIndex, fences);
  }

  public DatasetState withCurrent(SnapshotId id, HistoryEntry entry) {
    List<HistoryEntry> h = new ArrayList<>(history);
    h.add(entry);
    return new DatasetState(version, id, snapshots, h, runIndex, sourceIndex, fences);
  }

  public DatasetState withRun(String runId, SnapshotId id) {
    Map<String, SnapshotId> m = new HashMap<>(runIndex);
    m.put(runId, id);
    return new DatasetState(version, current, snapshots, history, m, sourceIndex, fences);
  }

  public DatasetState withSource(String sourceKey, SnapshotId id) {
    Map<String, SnapshotId> m = new HashMap<>(sourceIndex);
    m.put(sourceKey, id);
    return new DatasetState(version, current, snapshots, history, runIndex, m, fences);
  }

  public DatasetState withFence(String lockName, long token) {
    Map<String, Long> m = new HashMap<>(fences);
    m.put(lockName, token);
    return new DatasetState(version, current, snapshots, history, runIndex, sourceIndex, m);
  }

  DatasetState withVersion(long newVersion) {
    return new DatasetState(newVersion, current, snapshots, history, runIndex, sourceIndex, fences);
  }
}
