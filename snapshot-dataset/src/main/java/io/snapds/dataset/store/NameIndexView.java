package io.snapds.dataset.store;

import io.snapds.dataset.SnapshotId;
import java.util.Optional;

/** What run ids (rows {@code r}), source keys ({@code k}) and lock names ({@code f}: fences) point at. */
public interface NameIndexView {
  Optional<SnapshotId> snapshotForRun(String runId);

  void putRun(String runId, SnapshotId id);

  Optional<SnapshotId> snapshotForSource(String sourceKey);

  void putSource(String sourceKey, SnapshotId id);

  /** Highest fencing token recorded for a lock, 0 if none. */
  long fence(String lockName);

  void putFence(String lockName, long token);
}
