package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.BUILDING;
import static io.snapds.dataset.store.MetadataLayout.CLEANED;
import static io.snapds.dataset.store.MetadataLayout.COMMITTED;
import static io.snapds.dataset.store.MetadataLayout.GARBAGE;
import static io.snapds.dataset.store.MetadataLayout.SNAPSHOT;
import static io.snapds.dataset.store.MetadataLayout.STAGED;
import static io.snapds.dataset.store.MetadataLayout.TAG;
import static io.snapds.dataset.store.MetadataLayout.key;
import static io.snapds.dataset.store.MetadataLayout.kindStart;
import static io.snapds.dataset.store.MetadataLayout.kindStop;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Snapshot records (rows {@code n} + id(8), one column per field: {@link MetadataCodec}) and what
 * follows them: the indexes {@code c}, {@code b}, {@code g}, {@code d} ({@link SnapshotIndex}, the
 * cleaned ones counted in the pointer row's {@code dcount}), the tag index {@code t}, and the
 * outbox events of a record's change. No operation maintains an index by hand:
 * {@link #putSnapshot} compares the old and new record.
 */
final class SnapshotRows {
  private final ViewRows rows;
  private final PointerRow pointer;
  private final OutboxRows outbox;
  private final NameIndex tags;
  private final Map<SnapshotId, Optional<SnapshotInfo>> records = new HashMap<>();
  private final SnapshotIndex committed;
  private final SnapshotIndex building;
  private final SnapshotIndex staged;
  private final SnapshotIndex garbage;
  private final SnapshotIndex cleaned;

  SnapshotRows(ViewRows rows, PointerRow pointer, OutboxRows outbox) {
    this.rows = rows;
    this.pointer = pointer;
    this.outbox = outbox;
    this.tags = new NameIndex(rows, TAG);
    this.committed = new SnapshotIndex(rows, COMMITTED, s -> s.state() == SnapshotState.COMMITTED);
    this.building = new SnapshotIndex(rows, BUILDING, s -> s.state() == SnapshotState.BUILDING);
    this.staged = new SnapshotIndex(rows, STAGED, s -> s.state() == SnapshotState.STAGED);
    this.garbage = new SnapshotIndex(rows, GARBAGE, s -> isGone(s) && s.cleanedAt().isEmpty());
    this.cleaned = new SnapshotIndex(rows, CLEANED, s -> isGone(s) && s.cleanedAt().isPresent());
  }

  private static boolean isGone(SnapshotInfo s) {
    return s.state() == SnapshotState.EXPIRED || s.state() == SnapshotState.ABORTED;
  }

  Optional<SnapshotInfo> snapshot(SnapshotId id) {
    return records.computeIfAbsent(id, k -> decode(key(SNAPSHOT, k), rows.get(key(SNAPSHOT, k))));
  }

  private Optional<SnapshotInfo> decode(byte[] row, NavigableMap<byte[], byte[]> cols) {
    if (cols.isEmpty()) {
      return Optional.empty();
    }
    if (row.length != 9) {
      throw new CorruptMetadataException(rows.dataset(), Bytes.toStringBinary(row), "row key too short for a snapshot id");
    }
    long id = Bytes.toLong(row, 1);
    if (id <= 0) {
      throw new CorruptMetadataException(rows.dataset(), Bytes.toStringBinary(row), "invalid snapshot id " + id);
    }
    return Optional.of(MetadataCodec.decode(rows.dataset(), row, SnapshotId.of(id), cols));
  }

  /** Records of {@code ids} (absent ones skipped), fetching the uncached ones in one round trip. */
  List<SnapshotInfo> snapshots(Collection<SnapshotId> ids) {
    rows.fetchMissing(ids, records, SNAPSHOT, this::decode);
    List<SnapshotInfo> out = new ArrayList<>();
    for (SnapshotId id : ids) {
      records.get(id).ifPresent(out::add);
    }
    return out;
  }

  List<SnapshotInfo> retained() {
    List<SnapshotInfo> out = new ArrayList<>();
    for (SnapshotInfo s : snapshots(committed.ids().descendingSet())) {
      if (s.state() == SnapshotState.COMMITTED) {
        out.add(s);
      }
    }
    return out;
  }

  List<SnapshotInfo> building() {
    return snapshots(building.ids());
  }

  List<SnapshotInfo> staged() {
    return snapshots(staged.ids());
  }

  List<SnapshotInfo> awaitingCleanup() {
    return snapshots(garbage.ids());
  }

  Optional<SnapshotId> newestCleaned() {
    TreeSet<SnapshotId> ids = cleaned.ids();
    return ids.isEmpty() ? Optional.empty() : Optional.of(ids.last());
  }

  /** The {@code n} oldest cleaned snapshots' ids (fewer if there are fewer). */
  List<SnapshotId> oldestCleaned(long n) {
    return new ArrayList<>(cleaned.ids()).subList(0, (int) Math.min(n, cleaned.ids().size()));
  }

  List<SnapshotInfo> snapshots() {
    TreeMap<SnapshotId, SnapshotInfo> all = new TreeMap<>();
    for (MetaRows.Row r : rows.scan(kindStart(SNAPSHOT), kindStop(SNAPSHOT), false, Integer.MAX_VALUE)) {
      decode(r.key(), r.columns()).ifPresent(s -> all.put(s.id(), s));
    }
    records.forEach((id, s) -> s.ifPresent(info -> all.put(id, info)));
    return new ArrayList<>(all.descendingMap().values());
  }

  Optional<SnapshotInfo> tagged(String tag) {
    return tags.get(tag).flatMap(this::snapshot);
  }

  void putSnapshot(SnapshotInfo info) {
    SnapshotInfo before = snapshot(info.id()).orElse(null);
    if (info.equals(before)) {
      return;
    }
    emitChanges(before, info);
    byte[] row = key(SNAPSHOT, info.id());
    MetadataCodec.changes(before, info, (q, v) -> rows.write(row, q, v));
    committed.follow(before, info);
    building.follow(before, info);
    staged.follow(before, info);
    garbage.follow(before, info);
    int cleanedChange = cleaned.follow(before, info);
    if (cleanedChange != 0) {
      pointer.values().cleanedCount += cleanedChange;
    }
    Set<String> was = before == null ? Set.of() : before.tags();
    for (String tag : was) {
      if (!info.tags().contains(tag) && tagged(tag).map(s -> s.id().equals(info.id())).orElse(false)) {
        tags.unset(tag);
      }
    }
    for (String tag : info.tags()) {
      if (!was.contains(tag)) {
        tags.set(tag, info.id());
      }
    }
    records.put(info.id(), Optional.of(info));
  }

  private void emitChanges(SnapshotInfo before, SnapshotInfo after) {
    SnapshotState was = before == null ? null : before.state();
    if (after.state() != was && after.state() == SnapshotState.STAGED) {
      outbox.emit(DatasetEvent.Type.STAGED, after.id());
    }
    if (after.state() != was && after.state() == SnapshotState.EXPIRED) {
      // a stage that expires was never published: it is discarded
      outbox.emit(was == SnapshotState.STAGED ? DatasetEvent.Type.DISCARDED : DatasetEvent.Type.EXPIRED, after.id());
    }
    if (after.state() != was && after.state() == SnapshotState.ABORTED) {
      outbox.emit(DatasetEvent.Type.ABORTED, after.id());
    }
    if (after.cleanedAt().isPresent() && (before == null || before.cleanedAt().isEmpty())) {
      outbox.emit(DatasetEvent.Type.CLEANED, after.id());
    }
    if (!after.tags().equals(before == null ? Set.of() : before.tags())) {
      outbox.emit(DatasetEvent.Type.TAGGED, after.id());
    }
  }

  /** Deletes the record of a cleaned snapshot and its {@code d} row for good (past the horizon). */
  void drop(SnapshotId id) {
    byte[] row = key(SNAPSHOT, id);
    rows.deleteRow(row, rows.get(row));
    cleaned.drop(id);
    pointer.values().cleanedCount--;
    records.put(id, Optional.empty());
  }
}
