package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.HISTORY;
import static io.snapds.dataset.store.MetadataLayout.kindStart;
import static io.snapds.dataset.store.MetadataLayout.kindStop;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The current pointer and its history: the pointer row's {@code current}, {@code hcount} (history
 * rows kept), {@code last.at} (the newest entry's time) and {@code horizon.at} (the newest time the
 * horizon deleted), and one row {@code h} + millis(8) + version(8) + i(2) per change of the
 * current snapshot, columns {@code id} and {@code reason}, in commit order.
 */
final class HistoryRows {
  private static final byte[] ID = Bytes.toBytes("id");
  private static final byte[] REASON = Bytes.toBytes("reason");

  private final ViewRows rows;
  private final PointerRow pointer;
  private final OutboxRows outbox;
  private final SnapshotRows snapshots;
  private int added;
  private final List<HistoryEntry> newHistory = new ArrayList<>();

  HistoryRows(ViewRows rows, PointerRow pointer, OutboxRows outbox, SnapshotRows snapshots) {
    this.rows = rows;
    this.pointer = pointer;
    this.outbox = outbox;
    this.snapshots = snapshots;
  }

  static byte[] historyKey(long millis, long version, int i) {
    return Bytes.add(Bytes.add(new byte[] {HISTORY}, Bytes.toBytes(millis)), Bytes.toBytes(version),
        Bytes.toBytes((short) i));
  }

  Optional<SnapshotId> current() {
    Long cur = pointer.values().current;
    return cur == null ? Optional.empty() : Optional.of(SnapshotId.of(cur));
  }

  Optional<SnapshotInfo> currentInfo() {
    return current().map(id -> snapshots.snapshot(id).orElseThrow(() -> new CorruptMetadataException(rows.dataset(),
        "s", "current snapshot " + id + " has no record")));
  }

  void moveCurrent(SnapshotId id, String reason) {
    PointerRow.Values p = pointer.values();
    Instant at = pointer.commitTime();
    byte[] row = historyKey(at.toEpochMilli(), p.version + 1, added++);
    rows.write(row, ID, id.toBytes());
    rows.write(row, REASON, Bytes.toBytes(reason));
    p.current = id.value();
    p.historyCount++;
    p.lastAt = at.toEpochMilli();
    newHistory.add(new HistoryEntry(at, id, reason));
    outbox.emit(reason.equals("publish") || reason.startsWith("publish ") ? DatasetEvent.Type.PUBLISHED : DatasetEvent.Type.ROLLED_BACK, id);
  }

  List<HistoryEntry> history() {
    List<HistoryEntry> out = new ArrayList<>();
    for (MetaRows.Row r : rows.scan(kindStart(HISTORY), kindStop(HISTORY), false, Integer.MAX_VALUE)) {
      out.add(entry(r));
    }
    out.addAll(newHistory);
    return out;
  }

  Optional<HistoryEntry> currentAt(Instant time) {
    for (int i = newHistory.size() - 1; i >= 0; i--) {
      if (!newHistory.get(i).at().isAfter(time)) {
        return Optional.of(newHistory.get(i));
      }
    }
    long millis = time.toEpochMilli();
    byte[] stop = millis == Long.MAX_VALUE ? kindStop(HISTORY) : historyKey(millis + 1, 0, 0);
    List<MetaRows.Row> found = rows.scan(kindStart(HISTORY), stop, true, 1);
    return found.isEmpty() ? Optional.empty() : Optional.of(entry(found.get(0)));
  }

  Optional<Instant> historyHorizon() {
    Long at = pointer.values().horizonAt;
    return at == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(at));
  }

  /**
   * Deletes the oldest entries beyond the newest {@code keepLast} (at most 10,000), stopping at the
   * first that is {@code young}; {@code horizon.at} becomes the newest time deleted. Returns how
   * many it deleted.
   */
  int trim(int keepLast, Predicate<Instant> young) {
    PointerRow.Values p = pointer.values();
    int deleted = 0;
    long excess = p.historyCount - keepLast;
    if (excess > 0) {
      for (MetaRows.Row r : rows.scan(kindStart(HISTORY), kindStop(HISTORY), false, (int) Math.min(excess, 10_000))) {
        HistoryEntry h = entry(r);
        if (young.test(h.at())) {
          break;
        }
        rows.deleteRow(r.key(), r.columns());
        p.historyCount--;
        p.horizonAt = p.horizonAt == null ? h.at().toEpochMilli() : Math.max(p.horizonAt, h.at().toEpochMilli());
        deleted++;
      }
    }
    return deleted;
  }

  private HistoryEntry entry(MetaRows.Row r) {
    MetadataCodec.Columns c = rows.columns(r.key(), r.columns());
    if (r.key().length != 19) {
      throw c.corrupt("row key must be 19 bytes, is " + r.key().length);
    }
    return new HistoryEntry(Instant.ofEpochMilli(Bytes.toLong(r.key(), 1)), c.id(c.longValue(ID)), c.string(REASON));
  }
}
