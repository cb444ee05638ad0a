package io.snapds.cdap;

import io.snapds.dataset.SnapshotId;

/**
 * A run's reader pin and the snapshot it holds. A top-level class, not a record or a nested
 * class: CDAP's plugin inspector reads the exported package with ASM 5, which refuses records
 * and nest attributes (PluginJarIT checks it).
 */
final class RunPin {
  private final String pinId;
  private final SnapshotId snapshot;

  RunPin(String pinId, SnapshotId snapshot) {
    this.pinId = pinId;
    this.snapshot = snapshot;
  }

  String pinId() {
    return pinId;
  }

  SnapshotId snapshot() {
    return snapshot;
  }
}
