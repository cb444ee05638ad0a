package io.snapds.dataset;

import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the metadata table small, as part of cleanup: removes the cells that failed (invalid)
 * transactions wrote, so that truncating Tephra's invalid list can never make them visible, and
 * deletes what lies past the history horizon ({@code history.retain.last},
 * {@code history.retain.max.age}), and has the table major-compacted after every few thousand
 * deletes so that delete markers do not pile up. Versions superseded for everyone are pruned by every update
 * on the rows it touches (see the store); this class handles rows nobody touches again.
 */
final class MetadataPruner {
  private static final Logger LOG = LoggerFactory.getLogger(MetadataPruner.class);
  /** Deletes sent before the metadata table is major-compacted (it holds a few KB of live cells). */
  static final long COMPACT_AFTER_DELETES = 1_000;

  private final DatasetId dataset;
  private final MetadataStore store;
  private final DatasetProperties properties;
  private final LockTable locks;

  MetadataPruner(DatasetId dataset, MetadataStore store, DatasetProperties properties, LockTable locks) {
    this.dataset = dataset;
    this.store = store;
    this.properties = properties;
    this.locks = locks;
  }

  /** What one run removed. */
  record Pruned(int failedCells, MetadataView.HorizonTrim horizon) {}

  /**
   * @param invalids Tephra's invalid list as a transaction of this cleanup saw it
   * @throws io.snapds.dataset.CommitConflictException when a trim lost every race of its short
   *     (deferrable) budget; the next run trims
   */
  Pruned run(long[] invalids) {
    List<Long> failed = new ArrayList<>(invalids.length);
    for (long t : invalids) {
      failed.add(t);
    }
    int cells = store.removeVersionsOf(failed);
    MetadataView.HorizonTrim trim = store.updateDeferrable("trim metadata to the history horizon",
        view -> view.trimToHorizon(properties.historyRetainLast(), properties.historyRetainMaxAge(),
            NewSnapshot::lockName));
    int events = store.updateDeferrable("trim the event outbox", view -> view.trimEvents(properties.eventsRetainLast()));
    // the lock-table rows of source keys whose last record went: free ones go (a held or awaited
    // lock stays; its writer's next acquire starts from the recorded fence, or from 1 if none)
    int locksRemoved = 0;
    for (String lock : trim.locksFreed()) {
      if (locks.removeIfIdle(lock)) {
        locksRemoved++;
      }
    }
    if (store.compactDeletes(COMPACT_AFTER_DELETES)) {
      LOG.debug("dataset {}: metadata table compaction requested, to drop delete markers", dataset);
    }
    if (cells > 0 || trim.historyEntries() > 0 || trim.snapshotRecords() > 0 || events > 0) {
      LOG.debug("dataset {}: removed {} cells of failed transactions; past the horizon: {} ({} lock rows removed); "
          + "events past the window: {}", dataset, cells, trim, locksRemoved, events);
    }
    return new Pruned(cells, trim);
  }
}
