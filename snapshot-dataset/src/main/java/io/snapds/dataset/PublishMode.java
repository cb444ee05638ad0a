package io.snapds.dataset;

/**
 * How a staged snapshot's publish ({@link SnapshotDataset#publish(SnapshotId, PublishMode)},
 * {@link PublishGroup#mode}) treats a current snapshot that moved since the stage.
 */
public enum PublishMode {
  /** Publish only if the snapshot current now is the one it was staged on (the default). */
  BASE_UNCHANGED,
  /** Publish whatever is current now; what was published since the stage stops being current. */
  REPLACE_CURRENT
}
