package io.snapds.events;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;

/**
 * What an {@link AuditGate} did with one staged snapshot.
 *
 * @param outcome PUBLISHED or DISCARDED (by this call or before it), or NOT_AVAILABLE
 * @param reason why: the checks' reasons joined, or what was found when it was decided already
 * @param decidedBefore true when the snapshot was found published or discarded, by an earlier
 *     delivery of its event, a concurrent one, or by hand: this call ran no publish or discard of
 *     its own that took effect
 */
public record AuditDecision(DatasetId dataset, SnapshotId snapshot, Outcome outcome, String reason,
    boolean decidedBefore) {
  /** The state the staged snapshot is left in. */
  public enum Outcome {
    /** Current now (or was made current once, and may have been expired or replaced since). */
    PUBLISHED,
    /** Discarded: never current, its rows are deleted by cleanup. */
    DISCARDED,
    /** No longer a stage to decide: its record is gone (pruned) or it is in a state a stage never reaches. */
    NOT_AVAILABLE
  }

  public AuditDecision {
    checkNotNull(dataset, "dataset");
    checkNotNull(snapshot, "snapshot");
    checkNotNull(outcome, "outcome");
    checkNotNull(reason, "reason");
  }

  @Override
  public String toString() {
    return outcome + (decidedBefore ? " (decided before)" : "") + " " + dataset + "@" + snapshot + ": " + reason;
  }
}
