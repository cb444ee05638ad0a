package io.snapds.events;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DiffScanner;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link EventHandler} for an {@link EventConsumer} that hands each change of the current
 * snapshot (PUBLISHED and ROLLED_BACK events) to a {@link ChangeHandler} with the rows it changed:
 * the diff ({@link SnapshotDataset#diff}) from the snapshot current before (the history entry
 * before the event's) to the event's snapshot. Other events are ignored (and still marked
 * processed by the consumer).
 *
 * <p>An event handled again (a redelivery, a crash before the consumer recorded it) gets the same
 * diff, as long as both snapshots are readable, so an effect that applies it idempotently (upsert
 * the added and changed rows, delete the removed ones) ends the same. When the previous snapshot
 * is no longer readable the handler gets every row of the current one as ADDED and an empty
 * {@code previous} (resync); when the event's own snapshot is no longer readable (expired since),
 * the event is skipped with a warning, and the next change resyncs or diffs from it as readable.
 *
 * <p>Cost per event: one read of the history (bounded by the history horizon) and the diff.
 */
public final class ChangesOnPublish implements EventHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ChangesOnPublish.class);
  private static final Duration PIN_TTL = Duration.ofMinutes(10);

  private final SnapshotDatasets datasets;
  private final ChangeHandler handler;
  private final RowScan scan;

  public ChangesOnPublish(SnapshotDatasets datasets, ChangeHandler handler) {
    this(datasets, handler, RowScan.all());
  }

  /** @param scan narrows every diff to a key range and to columns (see {@link SnapshotDataset#diff}) */
  public ChangesOnPublish(SnapshotDatasets datasets, ChangeHandler handler, RowScan scan) {
    this.datasets = checkNotNull(datasets, "datasets");
    this.handler = checkNotNull(handler, "handler");
    this.scan = checkNotNull(scan, "scan");
  }

  @Override
  public void handle(DatasetEvent event) throws Exception {
    if (event.type() != DatasetEvent.Type.PUBLISHED && event.type() != DatasetEvent.Type.ROLLED_BACK
        || event.snapshot().isEmpty()) {
      return;
    }
    SnapshotId current = event.snapshot().get();
    try (SnapshotDataset ds = datasets.open(event.dataset())) {
      Optional<SnapshotId> previous = previous(ds.history(), event);
      if (previous.isPresent()) {
        DiffScanner diff;
        try {
          diff = ds.diff(SnapshotSelector.snapshot(previous.get()), SnapshotSelector.snapshot(current), scan);
        } catch (SnapshotNotAvailableException e) {
          if (e.snapshot().filter(current::equals).isPresent()) {
            LOG.warn("skipping {}: its snapshot is no longer readable ({})", event, e.getMessage());
            return;
          }
          diff = null; // the previous one is gone: resync
        }
        if (diff != null) {
          try (DiffScanner changes = diff) {
            handler.onPublished(event, previous, current, changes);
          }
          return;
        }
      }
      resync(ds, event, current);
    }
  }

  /** Every row of {@code current} as ADDED, the snapshot pinned while the handler runs. */
  private void resync(SnapshotDataset ds, DatasetEvent event, SnapshotId current) throws Exception {
    ReaderPin pin;
    try {
      pin = ds.pin(current, "changes-on-publish", PIN_TTL);
    } catch (SnapshotNotAvailableException e) {
      LOG.warn("skipping {}: its snapshot is no longer readable ({})", event, e.getMessage());
      return;
    }
    try (pin; RowScanner rows = ds.readSnapshot(current).scan(scan.limit(0))) {
      Iterable<RowChange> added = () -> {
        Iterator<io.snapds.dataset.SnapshotRow> it = rows.iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public RowChange next() {
            return RowChange.added(it.next());
          }
        };
      };
      handler.onPublished(event, Optional.empty(), current, added);
    }
  }

  /**
   * The snapshot current before {@code event}'s change: the history entry before the one the event's
   * commit wrote (same time and snapshot); empty when there is none (a first publish, or one past
   * the history horizon).
   */
  static Optional<SnapshotId> previous(List<HistoryEntry> history, DatasetEvent event) {
    SnapshotId current = event.snapshot().orElseThrow();
    int at = -1;
    for (int i = history.size() - 1; i >= 0 && at < 0; i--) {
      HistoryEntry h = history.get(i);
      if (h.snapshot().equals(current) && h.at().equals(event.commitTime())) {
        at = i;
      }
    }
    return at > 0 ? Optional.of(history.get(at - 1).snapshot()) : Optional.empty();
  }
}
