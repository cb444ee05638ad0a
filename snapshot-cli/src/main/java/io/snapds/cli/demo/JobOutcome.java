package io.snapds.cli.demo;

import io.snapds.dataset.SnapshotId;
import java.time.Duration;

/** What one demo job did: built the snapshot of its source key or reused one, or failed. */
record JobOutcome(int job, String sourceKey, boolean built, SnapshotId snapshot, Duration took, String error) {
  boolean failed() {
    return error != null;
  }
}
