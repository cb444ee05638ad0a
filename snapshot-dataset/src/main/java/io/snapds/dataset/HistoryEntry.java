package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Instant;

/**
 * One change of the current pointer: from {@code at} on, {@code snapshot} was current (a publish
 * or a rollback). The history is what time travel by timestamp reads.
 */
public record HistoryEntry(Instant at, SnapshotId snapshot, String reason) {
  public HistoryEntry {
    checkNotNull(at, "at");
    checkNotNull(snapshot, "snapshot");
    checkNotNull(reason, "reason");
  }
}
