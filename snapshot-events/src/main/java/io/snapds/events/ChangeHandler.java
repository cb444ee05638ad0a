package io.snapds.events;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.SnapshotId;
import java.util.Optional;

/**
 * The effect of a change of a dataset's current snapshot, given the rows it changed
 * ({@link ChangesOnPublish}): a search index, a cache or a warehouse table kept equal to the
 * current snapshot applies {@code changes} instead of reloading everything.
 */
@FunctionalInterface
public interface ChangeHandler {
  /**
   * Runs the effect of {@code event} (PUBLISHED or ROLLED_BACK), which made {@code current} the
   * current snapshot in place of {@code previous}.
   *
   * @param previous the snapshot current before; empty on the dataset's first publish, or when
   *     it is no longer readable (expired or cleaned since): then {@code changes} holds every row of
   *     {@code current} as ADDED, and the handler must replace what it kept (a resync)
   * @param changes the rows that differ, in key order, each snapshot pinned while the handler runs;
   *     iterate once, during the call
   * @throws Exception any failure: the event is not marked processed and is offered again
   */
  void onPublished(DatasetEvent event, Optional<SnapshotId> previous, SnapshotId current, Iterable<RowChange> changes)
      throws Exception;
}
