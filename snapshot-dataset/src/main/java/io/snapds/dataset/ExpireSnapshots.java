package io.snapds.dataset;

import java.time.Instant;
import java.util.List;

/**
 * Expires committed snapshots: they disappear from new readers at once; their rows are removed
 * by {@link SnapshotDataset#cleanup()} once no reader can still see them. The current snapshot
 * and tagged snapshots are never expired. {@link #commit()} returns the snapshots it expired.
 */
public interface ExpireSnapshots extends PendingUpdate<List<SnapshotInfo>> {
  /** Expires this snapshot (it must be committed, not current and not tagged). */
  ExpireSnapshots expire(SnapshotId id);

  /** Expires snapshots committed before {@code time}, except those {@link #retainLast} keeps. */
  ExpireSnapshots olderThan(Instant time);

  /** With {@link #olderThan}: keeps at least the newest {@code n}; alone: keeps only those. */
  ExpireSnapshots retainLast(int n);
}
