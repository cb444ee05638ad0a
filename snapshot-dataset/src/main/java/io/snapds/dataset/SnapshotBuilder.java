package io.snapds.dataset;

/** Writes the rows of a snapshot for a shared build; see {@link SnapshotDataset#sharedBuild}. */
@FunctionalInterface
public interface SnapshotBuilder {
  /** Puts the rows; the caller commits (or aborts, if this throws). */
  void build(SnapshotWriter writer) throws Exception;
}
