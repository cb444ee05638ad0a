package io.snapds.events;

import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;

/**
 * One data check an {@link AuditGate} runs on a staged snapshot before it publishes or discards it
 * (row counts, missing values, a reconciliation against the source). Built-in ones are in
 * {@link AuditChecks}.
 *
 * <p>A check must depend only on the staged snapshot's data and records (it may run again on a
 * redelivered event, and only the first decision counts), and must not change the dataset. The
 * snapshot's rows are pinned while the checks run: read them with
 * {@code dataset.readSnapshot(staged.id())}.
 */
@FunctionalInterface
public interface AuditCheck {
  /**
   * Checks {@code staged} (state STAGED, {@link SnapshotInfo#parentId()} the snapshot it was staged on).
   *
   * @return passed or failed, with the reason; a failure discards the stage
   * @throws Exception when the check could not run (storage unreachable): nothing is decided, and
   *     the event is offered again
   */
  CheckResult check(SnapshotDataset dataset, SnapshotInfo staged) throws Exception;
}
