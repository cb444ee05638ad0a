package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkArgument;
import static io.snapds.dataset.store.MetadataLayout.EVENTS;
import static io.snapds.dataset.store.MetadataLayout.kindStart;
import static io.snapds.dataset.store.MetadataLayout.kindStop;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.EventsPrunedException;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The outbox: rows {@code e} + sequence(8), column {@code v} one event each ({@link EventCodec}),
 * numbered after the pointer row's {@code eseq}; the pointer row's {@code dropped} holds the
 * sequence of the DROPPED event of a dataset being dropped (#13).
 *
 * <p>The one hook of the outbox is {@link #emit}: every change a consumer may care about passes
 * through a row group that calls it (a snapshot record, the current pointer, the upgrade); the
 * events are numbered and written at {@link #flush}, in the same transaction as the change, so a
 * change that conflicts or fails leaves no event and a committed one leaves exactly one per kind.
 */
final class OutboxRows {
  private static final byte[] EVENT = Bytes.toBytes("v");

  private final ViewRows rows;
  private final PointerRow pointer;
  private final List<Map.Entry<DatasetEvent.Type, Optional<SnapshotId>>> pending = new ArrayList<>();

  OutboxRows(ViewRows rows, PointerRow pointer) {
    this.rows = rows;
    this.pointer = pointer;
  }

  static byte[] eventKey(long sequence) {
    return Bytes.add(new byte[] {EVENTS}, Bytes.toBytes(sequence));
  }

  /** An event about snapshot {@code id}, written with this transaction's commit. */
  void emit(DatasetEvent.Type type, SnapshotId id) {
    pending.add(Map.entry(type, Optional.of(id)));
    rows.markChanged();
  }

  /** A dataset event (UPGRADED, DROPPED), with the current snapshot, if any, as context. */
  void emitDatasetEvent(DatasetEvent.Type type, Optional<SnapshotId> current) {
    pending.add(Map.entry(type, current));
    rows.markChanged();
  }

  boolean neverCommitted() {
    PointerRow.Values p = pointer.committed();
    return p.version == 0 && p.eventSeq == 0;
  }

  void announceCreated() {
    rows.markChanged(); // the first commit writes CREATED (flush); a later one writes nothing more
  }

  long droppedSequence() {
    return pointer.values().dropped;
  }

  void markDropped(Optional<SnapshotId> current) {
    if (pointer.values().dropped == 0 && pending.stream().noneMatch(e -> e.getKey() == DatasetEvent.Type.DROPPED)) {
      emitDatasetEvent(DatasetEvent.Type.DROPPED, current);
    }
  }

  long lastEventSequence() {
    return pointer.values().eventSeq;
  }

  List<DatasetEvent> events(long afterSequence, int limit) {
    checkArgument(afterSequence >= 0, "afterSequence must be >= 0, got %s", afterSequence);
    checkArgument(limit >= 1, "limit must be >= 1, got %s", limit);
    long last = pointer.values().eventSeq;
    List<DatasetEvent> out = new ArrayList<>();
    if (afterSequence >= last) {
      return out;
    }
    for (MetaRows.Row r : rows.scan(eventKey(afterSequence + 1), kindStop(EVENTS), false, limit)) {
      out.add(EventCodec.decode(rows.dataset(), r.key(), r.columns().get(EVENT)));
    }
    long first = out.isEmpty() ? 0 : out.get(0).sequence();
    if (first != afterSequence + 1) { // gapless when written: what is missing was pruned
      throw new EventsPrunedException(rows.dataset(), afterSequence, first);
    }
    return out;
  }

  int trimEvents(int keepLast) {
    checkArgument(keepLast >= 1, "events.retain.last must be >= 1, got %s", keepLast);
    long below = pointer.values().eventSeq - keepLast + 1; // delete sequences < below
    if (below <= 1) {
      return 0;
    }
    int deleted = 0;
    for (MetaRows.Row r : rows.scan(kindStart(EVENTS), eventKey(below), false, 10_000)) {
      rows.deleteRow(r.key(), r.columns());
      deleted++;
    }
    return deleted;
  }

  long oldestEventSequence() {
    List<MetaRows.Row> first = rows.scan(kindStart(EVENTS), kindStop(EVENTS), false, 1);
    return first.isEmpty() ? 0 : Bytes.toLong(first.get(0).key(), 1);
  }

  /**
   * Refuses a change of a dataset being dropped (DROPPED is the last event), adds CREATED ahead of
   * the first commit ever, then numbers the pending events after {@code eseq} and writes one row
   * each; a DROPPED event sets {@code dropped}.
   *
   * @param records the records as this transaction leaves them, for the events' context
   */
  void flush(Function<SnapshotId, Optional<SnapshotInfo>> records) {
    PointerRow.Values p = pointer.values();
    PointerRow.Values was = pointer.committed();
    if (was.dropped != 0 && !pending.isEmpty()) {
      throw new DatasetNotFoundException(rows.dataset(), "it is being dropped (event "
          + was.dropped + "); no change commits any more");
    }
    if (was.version == 0 && was.eventSeq == 0) { // the first commit ever: announce the dataset
      pending.add(0, Map.entry(DatasetEvent.Type.CREATED, Optional.empty()));
    }
    for (Map.Entry<DatasetEvent.Type, Optional<SnapshotId>> e : pending) {
      Optional<SnapshotInfo> s = e.getValue().flatMap(records);
      p.eventSeq++;
      DatasetEvent event = new DatasetEvent(DatasetEvent.SCHEMA_VERSION, e.getKey(), rows.dataset(), p.eventSeq,
          e.getValue(), s.flatMap(SnapshotInfo::runId), s.flatMap(SnapshotInfo::sourceKey),
          s.map(SnapshotInfo::rowCount).orElse(0L), pointer.commitTime());
      rows.write(eventKey(p.eventSeq), EVENT, EventCodec.encode(event));
      if (e.getKey() == DatasetEvent.Type.DROPPED) {
        p.dropped = p.eventSeq;
      }
    }
    pending.clear();
  }
}
