package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * The snapshot a shared build returned for a source key, and whether this caller built it or
 * reused one that was committed already (by an earlier caller, or one that built while this one
 * waited).
 */
public record SharedBuildResult(SnapshotInfo snapshot, boolean built) {
  public SharedBuildResult {
    checkNotNull(snapshot, "snapshot");
  }

  public SnapshotId snapshotId() {
    return snapshot.id();
  }
}
