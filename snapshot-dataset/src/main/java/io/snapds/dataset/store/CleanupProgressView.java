package io.snapds.dataset.store;

import io.snapds.dataset.SnapshotId;
import java.util.Collection;
import java.util.Map;

/** How far interrupted cleanups got (rows {@code q}). */
public interface CleanupProgressView {
  /**
   * How far an interrupted cleanup of {@code id} got (row {@code q} + id); {@link CleanupProgress#NONE}
   * when none is recorded. One row read.
   */
  CleanupProgress cleanupProgress(SnapshotId id);

  /**
   * {@link #cleanupProgress(SnapshotId)} of each of {@code ids}, read in one call however many
   * there are.
   */
  Map<SnapshotId, CleanupProgress> cleanupProgress(Collection<SnapshotId> ids);

  /** Records how far the cleanup of {@code id} got; {@link CleanupProgress#NONE} removes the row. */
  void putCleanupProgress(SnapshotId id, CleanupProgress progress);
}
