package io.snapds.dataset;

/**
 * Adds or removes named tags. A tagged snapshot is never expired by retention; a tag names one
 * snapshot at a time. Returns the tagged snapshot as it is after the change.
 */
public interface ManageTags extends PendingUpdate<SnapshotInfo> {
  ManageTags tag(String name);

  ManageTags untag(String name);
}
