package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.BUILDING;
import static io.snapds.dataset.store.MetadataLayout.CLEANED;
import static io.snapds.dataset.store.MetadataLayout.CLEANUP_PROGRESS;
import static io.snapds.dataset.store.MetadataLayout.COMMITTED;
import static io.snapds.dataset.store.MetadataLayout.GARBAGE;
import static io.snapds.dataset.store.MetadataLayout.STAGED;
import static io.snapds.dataset.store.MetadataLayout.HISTORY;
import static io.snapds.dataset.store.MetadataLayout.RUN;
import static io.snapds.dataset.store.MetadataLayout.SCHEMA;
import static io.snapds.dataset.store.MetadataLayout.SNAPSHOT;
import static io.snapds.dataset.store.MetadataLayout.SOURCE;
import static io.snapds.dataset.store.MetadataLayout.TAG;
import static io.snapds.dataset.store.MetadataLayout.kindStart;
import static io.snapds.dataset.store.MetadataLayout.kindStop;

import io.snapds.dataset.DatasetEvent;
import java.util.Optional;

/**
 * A truncate's step in the metadata (#36): it empties the row groups about snapshots, their
 * names, history and schemas, resets their pointer-row columns, and sets the pointer row's
 * {@code trunc} mark until the truncate has emptied the data table. What must never be given twice
 * stays: the key number counter, the fences, the outbox and the delivered positions.
 */
final class Truncation {
  /** The row groups a truncate empties: everything about snapshots, their names, history and schemas. */
  private static final byte[] TRUNCATED_KINDS = {SNAPSHOT, COMMITTED, BUILDING, STAGED, GARBAGE, CLEANED, TAG, HISTORY, RUN,
      SOURCE, SCHEMA, CLEANUP_PROGRESS};

  private final ViewRows rows;
  private final PointerRow pointer;
  private final OutboxRows outbox;

  Truncation(ViewRows rows, PointerRow pointer, OutboxRows outbox) {
    this.rows = rows;
    this.pointer = pointer;
    this.outbox = outbox;
  }

  long resetForTruncate() {
    PointerRow.Values p = pointer.values();
    for (byte kind : TRUNCATED_KINDS) {
      for (MetaRows.Row r : rows.scan(kindStart(kind), kindStop(kind), false, Integer.MAX_VALUE)) {
        for (byte[] q : r.columns().keySet()) {
          rows.write(r.key(), q, null);
        }
      }
    }
    p.current = null;
    p.historyCount = 0;
    p.cleanedCount = 0;
    p.lastAt = null;
    p.horizonAt = null;
    p.horizonId = 0;
    p.schema = null;
    p.truncating = rows.transaction().getWritePointer();
    outbox.emitDatasetEvent(DatasetEvent.Type.TRUNCATED, Optional.empty());
    return p.truncating;
  }

  long truncating() {
    return pointer.values().truncating;
  }

  void finishTruncate(long truncation) {
    PointerRow.Values p = pointer.values();
    if (p.truncating == truncation) {
      p.truncating = 0;
      rows.markChanged();
    }
  }
}
