package io.snapds.dataset;

/**
 * Makes a retained snapshot current again (metadata only; no rows move). Newer snapshots stay
 * retained, so a rollback can itself be undone. Returns the snapshot that is current after.
 */
public interface RollbackTo extends PendingUpdate<SnapshotInfo> {}
