package io.snapds.dataset;

import java.util.List;

/**
 * What one {@link SnapshotDataset#cleanup()} did: the snapshots whose rows it deleted, how many
 * rows, the ones it had to leave for now because a reader may still see them, the dead writers
 * it found and aborted, and the Tephra transactions it removed from the invalid list.
 */
public record CleanupResult(List<SnapshotId> cleaned, long rowsDeleted, List<SnapshotId> deferred,
    List<SnapshotId> abortedDeadWriters, List<Long> invalidTxTruncated) {
  public CleanupResult {
    cleaned = List.copyOf(cleaned);
    deferred = List.copyOf(deferred);
    abortedDeadWriters = List.copyOf(abortedDeadWriters);
    invalidTxTruncated = List.copyOf(invalidTxTruncated);
  }
}
