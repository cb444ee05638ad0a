package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.*;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Upgrades format 1 metadata to format 2 in one metadata transaction. Format 1 has the same
 * snapshot records, history, run-id, source-key and fence rows; format 2 adds the indexes
 * (committed, building, awaiting cleanup, cleaned, tags) and the pointer row's counters. So the
 * upgrade reads the whole table once (the last full read it will ever need), writes the indexes
 * and counters, and changes nothing else: every snapshot, history entry, tag and run id stays.
 * Running it again writes the same rows.
 */
final class MetadataUpgrade {
  private MetadataUpgrade() {}

  /** Returns the number of snapshot records indexed. */
  static int apply(DatasetId dataset, LayoutView view) {
    ViewRows rows = view.rows();
    NameIndex tags = new NameIndex(rows, TAG);
    int records = 0;
    long cleanedCount = 0;
    for (MetaRows.Row r : rows.scan(kindStart(SNAPSHOT), kindStop(SNAPSHOT), false, Integer.MAX_VALUE)) {
      SnapshotInfo s = MetadataCodec.decode(dataset, r.key(), SnapshotId.of(Bytes.toLong(r.key(), 1)), r.columns());
      boolean gone = s.state() == SnapshotState.EXPIRED || s.state() == SnapshotState.ABORTED;
      byte kind = switch (s.state()) {
        case COMMITTED -> COMMITTED;
        case BUILDING -> BUILDING;
        default -> s.cleanedAt().isPresent() ? CLEANED : GARBAGE;
      };
      rows.write(key(kind, s.id()), MARK, PRESENT);
      if (gone && s.cleanedAt().isPresent()) {
        cleanedCount++;
      }
      for (String tag : s.tags()) {
        tags.set(tag, s.id());
      }
      records++;
    }
    long historyCount = 0;
    Long lastAt = null;
    for (MetaRows.Row r : rows.scan(kindStart(HISTORY), kindStop(HISTORY), false, Integer.MAX_VALUE)) {
      historyCount++;
      long at = Bytes.toLong(r.key(), 1);
      lastAt = lastAt == null ? at : Math.max(lastAt, at);
    }
    view.pointer().resetCounters(historyCount, cleanedCount, lastAt);
    view.emitDatasetEvent(io.snapds.dataset.DatasetEvent.Type.UPGRADED);
    return records;
  }
}
