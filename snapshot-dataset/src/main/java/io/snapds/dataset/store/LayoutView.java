package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.*;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.EventsPrunedException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.Transaction;

/**
 * {@link MetadataView} over the rows of {@link MetadataLayout}: reads on demand and caches,
 * records changes as column writes on the {@link MetaRows} and keeps them for later reads.
 * Shared by the HBase store and the in-memory one, so unit tests exercise this very code.
 */
final class LayoutView implements MetadataView {
  private final DatasetId dataset;
  private final MetaRows rows;
  private final CommitClock clock;
  private Pointer pointer;
  private Instant commitTime;
  private boolean dirty;
  private int historyAdded;
  private final List<HistoryEntry> newHistory = new ArrayList<>();
  private final List<Map.Entry<DatasetEvent.Type, Optional<SnapshotId>>> pendingEvents = new ArrayList<>();
  private final Map<SnapshotId, Optional<SnapshotInfo>> records = new HashMap<>();
  private final Map<String, Optional<SnapshotId>> tags = new HashMap<>();
  private final Map<String, Optional<SnapshotId>> runs = new HashMap<>();
  private final Map<String, Optional<SnapshotId>> sources = new HashMap<>();
  private final Map<String, Long> fences = new HashMap<>();
  /** Locks whose fence row this view's horizon trim dropped. */
  private final List<String> locksFreed = new ArrayList<>();
  private final Map<String, Long> positions = new HashMap<>();
  private final Map<SnapshotId, CleanupProgress> progress = new HashMap<>();
  private final Map<Integer, Optional<io.snapds.dataset.schema.Schema>> schemas = new HashMap<>();
  private final Map<Integer, Integer> lastFieldIds = new HashMap<>();
  private final IdIndex committed = new IdIndex(COMMITTED, s -> s.state() == SnapshotState.COMMITTED);
  private final IdIndex building = new IdIndex(BUILDING, s -> s.state() == SnapshotState.BUILDING);
  private final IdIndex garbage = new IdIndex(GARBAGE, s -> isGone(s) && s.cleanedAt().isEmpty());
  private final IdIndex cleaned = new IdIndex(CLEANED, s -> isGone(s) && s.cleanedAt().isPresent());

  LayoutView(DatasetId dataset, MetaRows rows, CommitClock clock) {
    this.dataset = dataset;
    this.rows = rows;
    this.clock = clock;
  }

  private static boolean isGone(SnapshotInfo s) {
    return s.state() == SnapshotState.EXPIRED || s.state() == SnapshotState.ABORTED;
  }

  @Override
  public Transaction transaction() {
    return rows.transaction();
  }

  // ---- the pointer row ----

  /** The pointer row's values; mutable only inside this view. */
  private static final class Pointer {
    long version;
    Pointer loaded;
    Long current;
    long historyCount;
    long cleanedCount;
    Long lastAt;
    Long horizonAt;
    long horizonId;
    Integer schema;
    long eventSeq;
    long dropped;
    long keyNumbers;
    long truncating;

    Pointer copy() {
      Pointer c = new Pointer();
      c.version = version;
      c.current = current;
      c.historyCount = historyCount;
      c.cleanedCount = cleanedCount;
      c.lastAt = lastAt;
      c.horizonAt = horizonAt;
      c.horizonId = horizonId;
      c.schema = schema;
      c.eventSeq = eventSeq;
      c.dropped = dropped;
      c.keyNumbers = keyNumbers;
      c.truncating = truncating;
      return c;
    }
  }

  private Pointer pointer() {
    if (pointer == null) {
      NavigableMap<byte[], byte[]> cols = rows.get(STATE_ROW);
      MetadataCodec.Columns c = new MetadataCodec.Columns(dataset, STATE_ROW, cols);
      Pointer p = new Pointer();
      p.version = c.optionalLong("version", 0);
      long cur = c.optionalLong("current", 0);
      p.current = cur == 0 ? null : cur;
      p.historyCount = c.optionalLong("hcount", 0);
      p.cleanedCount = c.optionalLong("dcount", 0);
      p.lastAt = cols.containsKey(LAST_AT) ? c.longValue("last.at") : null;
      p.horizonAt = cols.containsKey(HORIZON_AT) ? c.longValue("horizon.at") : null;
      p.horizonId = c.optionalLong("horizon.id", 0);
      p.schema = c.optionalInt("schema");
      p.eventSeq = c.optionalLong("eseq", 0);
      p.dropped = c.optionalLong("dropped", 0);
      p.keyNumbers = c.optionalLong("kno", 0);
      p.truncating = c.optionalLong("trunc", 0);
      if (p.keyNumbers < 0 || p.keyNumbers > io.snapds.dataset.SnapshotKeys.MAX_NUMBER) {
        throw c.corrupt("invalid key number counter kno " + p.keyNumbers);
      }
      p.loaded = p.copy();
      pointer = p;
    }
    return pointer;
  }

  /** Writes the pointer row if anything changed; the store calls this once, before committing. */
  void flush() {
    if (!dirty) {
      return;
    }
    Pointer p = pointer();
    if (p.loaded.dropped != 0 && !pendingEvents.isEmpty()) { // DROPPED is the last event
      throw new io.snapds.dataset.DatasetNotFoundException(dataset, "it is being dropped (event "
          + p.loaded.dropped + "); no change commits any more");
    }
    if (p.loaded.version == 0 && p.loaded.eventSeq == 0) { // the first commit ever: announce the dataset
      pendingEvents.add(0, Map.entry(DatasetEvent.Type.CREATED, Optional.empty()));
    }
    writeEvents(p);
    // every commit writes the version: two commits from the same base always conflict;
    // the other columns only when they changed (each write is a version to prune later)
    Pointer was = p.loaded;
    rows.put(STATE_ROW, VERSION, Bytes.toBytes(p.version + 1));
    if (!java.util.Objects.equals(was.current, p.current)) {
      putOrDelete(STATE_ROW, CURRENT, p.current == null ? null : Bytes.toBytes(p.current));
    }
    if (was.historyCount != p.historyCount) {
      rows.put(STATE_ROW, HISTORY_COUNT, Bytes.toBytes(p.historyCount));
    }
    if (was.cleanedCount != p.cleanedCount) {
      rows.put(STATE_ROW, CLEANED_COUNT, Bytes.toBytes(p.cleanedCount));
    }
    if (!java.util.Objects.equals(was.lastAt, p.lastAt)) {
      putOrDelete(STATE_ROW, LAST_AT, p.lastAt == null ? null : Bytes.toBytes(p.lastAt));
    }
    if (!java.util.Objects.equals(was.horizonAt, p.horizonAt)) {
      putOrDelete(STATE_ROW, HORIZON_AT, p.horizonAt == null ? null : Bytes.toBytes(p.horizonAt));
    }
    if (was.horizonId != p.horizonId) {
      putOrDelete(STATE_ROW, HORIZON_ID, p.horizonId == 0 ? null : Bytes.toBytes(p.horizonId));
    }
    if (!java.util.Objects.equals(was.schema, p.schema)) {
      putOrDelete(STATE_ROW, SCHEMA_COLUMN, p.schema == null ? null : Bytes.toBytes(p.schema));
    }
    if (was.eventSeq != p.eventSeq) {
      rows.put(STATE_ROW, EVENT_SEQ, Bytes.toBytes(p.eventSeq));
    }
    if (was.dropped != p.dropped) {
      rows.put(STATE_ROW, DROPPED, Bytes.toBytes(p.dropped));
    }
    if (was.keyNumbers != p.keyNumbers) {
      rows.put(STATE_ROW, KEY_NUMBERS, Bytes.toBytes(p.keyNumbers));
    }
    if (was.truncating != p.truncating) {
      putOrDelete(STATE_ROW, TRUNCATING, p.truncating == 0 ? null : Bytes.toBytes(p.truncating));
    }
  }

  // ---- the outbox ----

  /**
   * The one hook of the outbox: every change a consumer may care about passes through
   * {@link #putSnapshot}, {@link #moveCurrent} or the upgrade, which call this; the events are
   * numbered and written at {@link #flush}, in the same transaction as the change, so a change
   * that conflicts or fails leaves no event and a committed one leaves exactly one per kind.
   */
  void emit(DatasetEvent.Type type, SnapshotId id) {
    pendingEvents.add(Map.entry(type, Optional.of(id)));
    dirty = true;
  }

  /** A dataset event (UPGRADED, DROPPED), with the current snapshot, if any, as context. */
  void emitDatasetEvent(DatasetEvent.Type type) {
    pendingEvents.add(Map.entry(type, current()));
    dirty = true;
  }

  /**
   * Numbers the pending events after the pointer row's {@code eseq} and writes one row each; the
   * pointer row's {@code dropped} column takes the sequence of a DROPPED event.
   */
  private void writeEvents(Pointer p) {
    for (Map.Entry<DatasetEvent.Type, Optional<SnapshotId>> e : pendingEvents) {
      Optional<SnapshotInfo> s = e.getValue().flatMap(this::snapshot);
      p.eventSeq++;
      DatasetEvent event = new DatasetEvent(DatasetEvent.SCHEMA_VERSION, e.getKey(), dataset, p.eventSeq,
          e.getValue(), s.flatMap(SnapshotInfo::runId), s.flatMap(SnapshotInfo::sourceKey),
          s.map(SnapshotInfo::rowCount).orElse(0L), commitTime());
      rows.put(eventKey(p.eventSeq), EVENT, EventCodec.encode(event));
      if (e.getKey() == DatasetEvent.Type.DROPPED) {
        p.dropped = p.eventSeq;
      }
    }
    pendingEvents.clear();
  }

  @Override
  public boolean neverCommitted() {
    Pointer p = pointer();
    return p.loaded.version == 0 && p.loaded.eventSeq == 0;
  }

  @Override
  public void announceCreated() {
    dirty = true; // the first commit writes CREATED (flush); a later one writes nothing more
  }

  @Override
  public long droppedSequence() {
    return pointer().dropped;
  }

  @Override
  public void markDropped() {
    if (pointer().dropped == 0 && pendingEvents.stream().noneMatch(e -> e.getKey() == DatasetEvent.Type.DROPPED)) {
      emitDatasetEvent(DatasetEvent.Type.DROPPED);
    }
  }

  /** The row groups a truncate empties: everything about snapshots, their names, history and schemas. */
  private static final byte[] TRUNCATED_KINDS = {SNAPSHOT, COMMITTED, BUILDING, GARBAGE, CLEANED, TAG, HISTORY, RUN,
      SOURCE, SCHEMA, CLEANUP_PROGRESS};

  @Override
  public long resetForTruncate() {
    Pointer p = pointer();
    for (byte kind : TRUNCATED_KINDS) {
      for (MetaRows.Row r : rows.scan(kindStart(kind), kindStop(kind), false, Integer.MAX_VALUE)) {
        for (byte[] q : r.columns().keySet()) {
          rows.delete(r.key(), q);
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
    pendingEvents.add(Map.entry(DatasetEvent.Type.TRUNCATED, Optional.empty()));
    dirty = true;
    return p.truncating;
  }

  @Override
  public long truncating() {
    return pointer().truncating;
  }

  @Override
  public void finishTruncate(long truncation) {
    Pointer p = pointer();
    if (p.truncating == truncation) {
      p.truncating = 0;
      dirty = true;
    }
  }

  @Override
  public long lastKeyNumber() {
    return pointer().keyNumbers;
  }

  @Override
  public long nextKeyNumber() {
    Pointer p = pointer();
    if (p.keyNumbers >= io.snapds.dataset.SnapshotKeys.MAX_NUMBER) {
      throw new IllegalStateException("dataset " + dataset + " has given every key number up to " + p.keyNumbers
          + ": no snapshot can begin");
    }
    p.keyNumbers++;
    dirty = true;
    return p.keyNumbers;
  }

  @Override
  public long lastEventSequence() {
    return pointer().eventSeq;
  }

  @Override
  public List<DatasetEvent> events(long afterSequence, int limit) {
    checkArgument(afterSequence >= 0, "afterSequence must be >= 0, got %s", afterSequence);
    checkArgument(limit >= 1, "limit must be >= 1, got %s", limit);
    long last = pointer().eventSeq;
    List<DatasetEvent> out = new ArrayList<>();
    if (afterSequence >= last) {
      return out;
    }
    for (MetaRows.Row r : rows.scan(eventKey(afterSequence + 1), kindStop(EVENTS), false, limit)) {
      out.add(EventCodec.decode(dataset, r.key(), r.columns().get(EVENT)));
    }
    long first = out.isEmpty() ? 0 : out.get(0).sequence();
    if (first != afterSequence + 1) { // gapless when written: what is missing was pruned
      throw new EventsPrunedException(dataset, afterSequence, first);
    }
    return out;
  }

  @Override
  public int trimEvents(int keepLast) {
    checkArgument(keepLast >= 1, "events.retain.last must be >= 1, got %s", keepLast);
    long below = pointer().eventSeq - keepLast + 1; // delete sequences < below
    if (below <= 1) {
      return 0;
    }
    int deleted = 0;
    for (MetaRows.Row r : rows.scan(kindStart(EVENTS), eventKey(below), false, 10_000)) {
      deleteRow(r.key(), r.columns());
      deleted++;
    }
    return deleted;
  }

  @Override
  public long oldestEventSequence() {
    List<MetaRows.Row> first = rows.scan(kindStart(EVENTS), kindStop(EVENTS), false, 1);
    return first.isEmpty() ? 0 : Bytes.toLong(first.get(0).key(), 1);
  }

  // ---- delivered positions of relays and consumers ----

  @Override
  public long deliveredPosition(String name) {
    return positions.computeIfAbsent(checkPositionName(name), n -> {
      byte[] row = key(POSITION, n);
      NavigableMap<byte[], byte[]> cols = rows.get(row);
      return cols.isEmpty() ? 0L : new MetadataCodec.Columns(dataset, row, cols).longValue("seq");
    });
  }

  @Override
  public void putDeliveredPosition(String name, long sequence) {
    long last = lastEventSequence();
    checkArgument(sequence >= 0 && sequence <= last,
        "delivered position of '%s' must be in 0..%s (the last event of %s), got %s", name, last, dataset, sequence);
    if (deliveredPosition(name) != sequence) {
      putOrDelete(key(POSITION, name), POSITION_SEQ, Bytes.toBytes(sequence));
      positions.put(name, sequence);
    }
  }

  @Override
  public java.util.SortedMap<String, Long> deliveredPositions() {
    java.util.SortedMap<String, Long> out = new TreeMap<>();
    for (MetaRows.Row r : rows.scan(kindStart(POSITION), kindStop(POSITION), false, Integer.MAX_VALUE)) {
      String name = Bytes.toString(r.key(), 1, r.key().length - 1);
      out.put(name, new MetadataCodec.Columns(dataset, r.key(), r.columns()).longValue("seq"));
    }
    out.putAll(positions);
    return out;
  }

  // ---- cleanup progress ----

  @Override
  public CleanupProgress cleanupProgress(SnapshotId id) {
    return progress.computeIfAbsent(id, i -> decodeProgress(key(CLEANUP_PROGRESS, i),
        rows.get(key(CLEANUP_PROGRESS, i))));
  }

  @Override
  public Map<SnapshotId, CleanupProgress> cleanupProgress(Collection<SnapshotId> ids) {
    fetchMissing(ids, progress, CLEANUP_PROGRESS, this::decodeProgress);
    Map<SnapshotId, CleanupProgress> out = new HashMap<>();
    ids.forEach(id -> out.put(id, progress.get(id)));
    return out;
  }

  /**
   * Reads the rows {@code kind} + id of those of {@code ids} that {@code cache} lacks, in one call
   * however many, and caches what {@code decode} makes of each.
   */
  private <T> void fetchMissing(Iterable<SnapshotId> ids, Map<SnapshotId, T> cache, byte kind,
      BiFunction<byte[], NavigableMap<byte[], byte[]>, T> decode) {
    List<SnapshotId> missing = new ArrayList<>();
    for (SnapshotId id : ids) {
      if (!cache.containsKey(id)) {
        missing.add(id);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    List<byte[]> keys = new ArrayList<>(missing.size());
    missing.forEach(id -> keys.add(key(kind, id)));
    List<NavigableMap<byte[], byte[]>> got = rows.getAll(keys);
    for (int i = 0; i < missing.size(); i++) {
      cache.put(missing.get(i), decode.apply(keys.get(i), got.get(i)));
    }
  }

  private CleanupProgress decodeProgress(byte[] row, NavigableMap<byte[], byte[]> cols) {
    byte[] value = cols.get(PROGRESS);
    if (value == null) {
      return CleanupProgress.NONE;
    }
    try {
      return CleanupProgress.decode(value);
    } catch (IllegalArgumentException e) {
      throw new CorruptMetadataException(dataset, Bytes.toStringBinary(row), e.getMessage());
    }
  }

  @Override
  public void putCleanupProgress(SnapshotId id, CleanupProgress p) {
    if (cleanupProgress(id).equals(p)) {
      return;
    }
    byte[] row = key(CLEANUP_PROGRESS, id);
    if (p.equals(CleanupProgress.NONE)) {
      NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      cols.put(PROGRESS, PRESENT);
      deleteRow(row, cols); // and purged physically later, with its versions
    } else {
      putOrDelete(row, PROGRESS, p.encode());
    }
    progress.put(id, p);
  }

  private static String checkPositionName(String name) {
    checkArgument(name != null && !name.isBlank(), "relay or consumer name must not be empty, got '%s'", name);
    return name;
  }

  private void putOrDelete(byte[] row, byte[] q, byte[] value) {
    if (value == null) {
      rows.delete(row, q);
    } else {
      rows.put(row, q, value);
    }
    dirty = true;
  }

  /** For the format upgrade: the rows underneath. */
  MetaRows rows() {
    return rows;
  }

  /** For the format upgrade: writes a column as is. */
  void putRaw(byte[] row, byte[] q, byte[] value) {
    putOrDelete(row, q, value);
  }

  /** For the format upgrade: sets the pointer row's counters from a full count. */
  void resetCounters(long historyCount, long cleanedCount, Long lastAt) {
    Pointer p = pointer();
    p.loaded.historyCount = -1; // always written: the upgrade records them for the first time
    p.loaded.cleanedCount = -1;
    p.loaded.lastAt = null;
    p.historyCount = historyCount;
    p.cleanedCount = cleanedCount;
    p.lastAt = lastAt;
    dirty = true;
  }

  @Override
  public boolean changed() {
    return dirty;
  }

  @Override
  public Optional<SnapshotId> current() {
    Long cur = pointer().current;
    return cur == null ? Optional.empty() : Optional.of(SnapshotId.of(cur));
  }

  @Override
  public Optional<SnapshotInfo> currentInfo() {
    return current().map(id -> snapshot(id).orElseThrow(() -> new CorruptMetadataException(dataset, "s",
        "current snapshot " + id + " has no record")));
  }

  @Override
  public Instant commitTime() {
    if (commitTime == null) {
      Instant at = clock.at(rows.transaction()).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
      Long last = pointer().lastAt;
      commitTime = last != null && at.toEpochMilli() <= last ? Instant.ofEpochMilli(last + 1) : at;
    }
    return commitTime;
  }

  // ---- snapshot records and their indexes ----

  @Override
  public Optional<SnapshotInfo> snapshot(SnapshotId id) {
    return records.computeIfAbsent(id, k -> decode(key(SNAPSHOT, k), rows.get(key(SNAPSHOT, k))));
  }

  private Optional<SnapshotInfo> decode(byte[] row, NavigableMap<byte[], byte[]> cols) {
    if (cols.isEmpty()) {
      return Optional.empty();
    }
    if (row.length != 9) {
      throw new CorruptMetadataException(dataset, Bytes.toStringBinary(row), "row key too short for a snapshot id");
    }
    long id = Bytes.toLong(row, 1);
    if (id <= 0) {
      throw new CorruptMetadataException(dataset, Bytes.toStringBinary(row), "invalid snapshot id " + id);
    }
    return Optional.of(MetadataCodec.decode(dataset, row, SnapshotId.of(id), cols));
  }

  @Override
  public boolean pastHorizon(SnapshotId id) {
    return id.value() <= pointer().horizonId;
  }

  @Override
  public long horizonId() {
    return pointer().horizonId;
  }

  @Override
  public Optional<SnapshotId> newestCleaned() {
    TreeSet<SnapshotId> ids = cleaned.ids();
    return ids.isEmpty() ? Optional.empty() : Optional.of(ids.last());
  }

  @Override
  public List<SnapshotInfo> snapshots(Collection<SnapshotId> ids) {
    return records(ids);
  }

  /** Records of {@code ids} (absent ones skipped), fetching the uncached ones in one round trip. */
  private List<SnapshotInfo> records(Iterable<SnapshotId> ids) {
    fetchMissing(ids, records, SNAPSHOT, this::decode);
    List<SnapshotInfo> out = new ArrayList<>();
    for (SnapshotId id : ids) {
      records.get(id).ifPresent(out::add);
    }
    return out;
  }

  @Override
  public List<SnapshotInfo> retained() {
    List<SnapshotInfo> out = new ArrayList<>();
    for (SnapshotInfo s : records(committed.ids().descendingSet())) {
      if (s.state() == SnapshotState.COMMITTED) {
        out.add(s);
      }
    }
    return out;
  }

  @Override
  public List<SnapshotInfo> building() {
    return records(building.ids());
  }

  @Override
  public List<SnapshotInfo> awaitingCleanup() {
    return records(garbage.ids());
  }

  @Override
  public List<SnapshotInfo> snapshots() {
    TreeMap<SnapshotId, SnapshotInfo> all = new TreeMap<>();
    for (MetaRows.Row r : rows.scan(kindStart(SNAPSHOT), kindStop(SNAPSHOT), false, Integer.MAX_VALUE)) {
      decode(r.key(), r.columns()).ifPresent(s -> all.put(s.id(), s));
    }
    records.forEach((id, s) -> s.ifPresent(info -> all.put(id, info)));
    return new ArrayList<>(all.descendingMap().values());
  }

  @Override
  public void putSnapshot(SnapshotInfo info) {
    SnapshotInfo before = snapshot(info.id()).orElse(null);
    if (info.equals(before)) {
      return;
    }
    emitChanges(before, info);
    byte[] row = key(SNAPSHOT, info.id());
    MetadataCodec.changes(before, info, (q, v) -> putOrDelete(row, q, v));
    for (IdIndex index : List.of(committed, building, garbage, cleaned)) {
      index.follow(before, info);
    }
    Set<String> was = before == null ? Set.of() : before.tags();
    for (String tag : was) {
      if (!info.tags().contains(tag) && tagged(tag).map(s -> s.id().equals(info.id())).orElse(false)) {
        putOrDelete(key(TAG, tag), ID, null);
        tags.put(tag, Optional.empty());
      }
    }
    for (String tag : info.tags()) {
      if (!was.contains(tag)) {
        putOrDelete(key(TAG, tag), ID, info.id().toBytes());
        tags.put(tag, Optional.of(info.id()));
      }
    }
    records.put(info.id(), Optional.of(info));
  }

  private void emitChanges(SnapshotInfo before, SnapshotInfo after) {
    SnapshotState was = before == null ? null : before.state();
    if (after.state() != was && after.state() == SnapshotState.EXPIRED) {
      emit(DatasetEvent.Type.EXPIRED, after.id());
    }
    if (after.state() != was && after.state() == SnapshotState.ABORTED) {
      emit(DatasetEvent.Type.ABORTED, after.id());
    }
    if (after.cleanedAt().isPresent() && (before == null || before.cleanedAt().isEmpty())) {
      emit(DatasetEvent.Type.CLEANED, after.id());
    }
    if (!after.tags().equals(before == null ? Set.of() : before.tags())) {
      emit(DatasetEvent.Type.TAGGED, after.id());
    }
  }

  @Override
  public Optional<SnapshotInfo> tagged(String tag) {
    return tags.computeIfAbsent(tag, t -> idColumn(key(TAG, t))).flatMap(this::snapshot);
  }

  private Optional<SnapshotId> idColumn(byte[] row) {
    NavigableMap<byte[], byte[]> cols = rows.get(row);
    if (cols.isEmpty()) {
      return Optional.empty();
    }
    MetadataCodec.Columns c = new MetadataCodec.Columns(dataset, row, cols);
    return Optional.of(c.id(c.longValue("id")));
  }

  /** One of the id-set indexes: which snapshots are in it follows their records. */
  private final class IdIndex {
    private final byte kind;
    private final Predicate<SnapshotInfo> member;
    private TreeSet<SnapshotId> ids;
    private final Set<SnapshotId> added = new HashSet<>();
    private final Set<SnapshotId> removed = new HashSet<>();

    IdIndex(byte kind, Predicate<SnapshotInfo> member) {
      this.kind = kind;
      this.member = member;
    }

    TreeSet<SnapshotId> ids() {
      if (ids == null) {
        ids = new TreeSet<>();
        for (MetaRows.Row r : rows.scan(kindStart(kind), kindStop(kind), false, Integer.MAX_VALUE)) {
          ids.add(SnapshotId.of(Bytes.toLong(r.key(), 1)));
        }
        ids.removeAll(removed);
        ids.addAll(added);
      }
      return ids;
    }

    /** Deletes the index row of {@code id} for good (the record went past the horizon). */
    void drop(SnapshotId id) {
      byte[] row = key(kind, id);
      deleteRow(row, rows.get(row));
      if (kind == CLEANED) {
        pointer().cleanedCount--;
      }
      removed.add(id);
      added.remove(id);
      if (ids != null) {
        ids.remove(id);
      }
    }

    void follow(SnapshotInfo before, SnapshotInfo after) {
      boolean was = before != null && member.test(before);
      boolean is = member.test(after);
      if (was != is) {
        putOrDelete(key(kind, after.id()), MARK, is ? PRESENT : null);
        if (kind == CLEANED) {
          pointer().cleanedCount += is ? 1 : -1;
        }
        (is ? added : removed).add(after.id());
        (is ? removed : added).remove(after.id());
        if (ids != null) {
          if (is) {
            ids.add(after.id());
          } else {
            ids.remove(after.id());
          }
        }
      }
    }
  }

  // ---- history ----

  @Override
  public void moveCurrent(SnapshotId id, String reason) {
    Pointer p = pointer();
    Instant at = commitTime();
    byte[] row = historyKey(at.toEpochMilli(), p.version + 1, historyAdded++);
    putOrDelete(row, ID, id.toBytes());
    putOrDelete(row, REASON, Bytes.toBytes(reason));
    p.current = id.value();
    p.historyCount++;
    p.lastAt = at.toEpochMilli();
    newHistory.add(new HistoryEntry(at, id, reason));
    emit("publish".equals(reason) ? DatasetEvent.Type.PUBLISHED : DatasetEvent.Type.ROLLED_BACK, id);
  }

  @Override
  public List<HistoryEntry> history() {
    List<HistoryEntry> out = new ArrayList<>();
    for (MetaRows.Row r : rows.scan(kindStart(HISTORY), kindStop(HISTORY), false, Integer.MAX_VALUE)) {
      out.add(historyEntry(r));
    }
    out.addAll(newHistory);
    return out;
  }

  @Override
  public Optional<HistoryEntry> currentAt(Instant time) {
    for (int i = newHistory.size() - 1; i >= 0; i--) {
      if (!newHistory.get(i).at().isAfter(time)) {
        return Optional.of(newHistory.get(i));
      }
    }
    long millis = time.toEpochMilli();
    byte[] stop = millis == Long.MAX_VALUE ? kindStop(HISTORY) : historyKey(millis + 1, 0, 0);
    List<MetaRows.Row> found = rows.scan(kindStart(HISTORY), stop, true, 1);
    return found.isEmpty() ? Optional.empty() : Optional.of(historyEntry(found.get(0)));
  }

  private HistoryEntry historyEntry(MetaRows.Row r) {
    MetadataCodec.Columns c = new MetadataCodec.Columns(dataset, r.key(), r.columns());
    if (r.key().length != 19) {
      throw c.corrupt("row key must be 19 bytes, is " + r.key().length);
    }
    return new HistoryEntry(Instant.ofEpochMilli(Bytes.toLong(r.key(), 1)), c.id(c.longValue("id")), c.string(REASON_NAME));
  }

  private static final String REASON_NAME = "reason";

  @Override
  public Optional<Instant> historyHorizon() {
    Long at = pointer().horizonAt;
    return at == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(at));
  }

  // ---- schemas ----

  @Override
  public Optional<Integer> currentSchemaId() {
    return Optional.ofNullable(pointer().schema);
  }

  @Override
  public Optional<io.snapds.dataset.schema.Schema> schema(int schemaId) {
    return schemas.computeIfAbsent(schemaId, this::readSchema);
  }

  private Optional<io.snapds.dataset.schema.Schema> readSchema(int schemaId) {
    byte[] row = key(SCHEMA, schemaId);
    NavigableMap<byte[], byte[]> cols = rows.get(row);
    if (cols.isEmpty()) {
      return Optional.empty();
    }
    MetadataCodec.Columns c = new MetadataCodec.Columns(dataset, row, cols);
    try {
      return Optional.of(io.snapds.dataset.schema.Schema.parse(c.string("schema")));
    } catch (io.snapds.dataset.schema.SchemaException e) {
      throw c.corrupt("schema " + schemaId + " does not parse: " + e.getMessage());
    }
  }

  @Override
  public int lastFieldId(int schemaId) {
    return lastFieldIds.computeIfAbsent(schemaId, this::readLastFieldId);
  }

  private int readLastFieldId(int schemaId) {
    byte[] row = key(SCHEMA, schemaId);
    NavigableMap<byte[], byte[]> cols = rows.get(row);
    Integer last = new MetadataCodec.Columns(dataset, row, cols).optionalInt("lastfid");
    return last == null ? 0 : last;
  }

  @Override
  public void putSchema(int schemaId, io.snapds.dataset.schema.Schema schema, int lastFieldId) {
    byte[] row = key(SCHEMA, schemaId);
    putOrDelete(row, SCHEMA_COLUMN, Bytes.toBytes(schema.toStringWithIds()));
    putOrDelete(row, LAST_FIELD_ID, Bytes.toBytes(lastFieldId));
    pointer().schema = schemaId;
    schemas.put(schemaId, Optional.of(schema));
    lastFieldIds.put(schemaId, lastFieldId);
    dirty = true;
  }

  // ---- run, source and fence rows ----

  @Override
  public Optional<SnapshotId> snapshotForRun(String runId) {
    return runs.computeIfAbsent(runId, r -> idColumn(key(RUN, r)));
  }

  @Override
  public Optional<SnapshotId> snapshotForSource(String sourceKey) {
    return sources.computeIfAbsent(sourceKey, k -> idColumn(key(SOURCE, k)));
  }

  @Override
  public long fence(String lockName) {
    return fences.computeIfAbsent(lockName, l -> {
      byte[] row = key(FENCE, l);
      NavigableMap<byte[], byte[]> cols = rows.get(row);
      return cols.isEmpty() ? 0L : new MetadataCodec.Columns(dataset, row, cols).longValue("token");
    });
  }

  @Override
  public void putRun(String runId, SnapshotId id) {
    if (!snapshotForRun(runId).equals(Optional.of(id))) {
      putOrDelete(key(RUN, runId), ID, id.toBytes());
      runs.put(runId, Optional.of(id));
    }
  }

  @Override
  public void putSource(String sourceKey, SnapshotId id) {
    if (!snapshotForSource(sourceKey).equals(Optional.of(id))) {
      putOrDelete(key(SOURCE, sourceKey), ID, id.toBytes());
      sources.put(sourceKey, Optional.of(id));
    }
  }

  @Override
  public void putFence(String lockName, long token) {
    if (fence(lockName) != token) {
      putOrDelete(key(FENCE, lockName), TOKEN, Bytes.toBytes(token));
      fences.put(lockName, token);
    }
  }

  // ---- the history horizon ----

  @Override
  public HorizonTrim trimToHorizon(int keepLast, Optional<Duration> maxAge, Function<String, String> lockOfSource) {
    Instant now = commitTime();
    Predicate<Instant> young = at -> maxAge.isPresent() && at.isAfter(now.minus(maxAge.get()));
    Pointer p = pointer();
    int history = 0;
    long excess = p.historyCount - keepLast;
    if (excess > 0) {
      for (MetaRows.Row r : rows.scan(kindStart(HISTORY), kindStop(HISTORY), false, (int) Math.min(excess, 10_000))) {
        HistoryEntry h = historyEntry(r);
        if (young.test(h.at())) {
          break;
        }
        deleteRow(r.key(), r.columns());
        p.historyCount--;
        p.horizonAt = p.horizonAt == null ? h.at().toEpochMilli() : Math.max(p.horizonAt, h.at().toEpochMilli());
        history++;
      }
    }
    int records = 0;
    excess = p.cleanedCount - keepLast;
    if (excess > 0) {
      List<SnapshotId> oldest = new ArrayList<>(cleaned.ids()).subList(0, (int) Math.min(excess, cleaned.ids().size()));
      for (SnapshotInfo s : records(List.copyOf(oldest))) {
        if (s.cleanedAt().map(young::test).orElse(false)) {
          break;
        }
        dropRecord(s, lockOfSource);
        p.horizonId = Math.max(p.horizonId, s.id().value());
        records++;
      }
    }
    // progress rows whose record an earlier trim deleted: a progress record of an earlier version
    // could land after the trim, and nothing else would ever remove it (at most G + such rows)
    for (MetaRows.Row r : rows.scan(kindStart(CLEANUP_PROGRESS), kindStop(CLEANUP_PROGRESS), false, 1_000)) {
      SnapshotId id = SnapshotId.of(Bytes.toLong(r.key(), 1));
      if (pastHorizon(id) && snapshot(id).isEmpty()) {
        putCleanupProgress(id, CleanupProgress.NONE);
      }
    }
    return new HorizonTrim(history, records, purgeDeleted(), locksFreed);
  }

  private void dropRecord(SnapshotInfo s, Function<String, String> lockOfSource) {
    byte[] row = key(SNAPSHOT, s.id());
    deleteRow(row, rows.get(row));
    cleaned.drop(s.id());
    records.put(s.id(), Optional.empty());
    // a progress row a concurrent cleanup recorded after the snapshot was done (one get of a row
    // that is almost always absent, per record dropped): no such row outlives its record
    putCleanupProgress(s.id(), CleanupProgress.NONE);
    if (s.runId().isPresent() && snapshotForRun(s.runId().get()).equals(Optional.of(s.id()))) {
      byte[] run = key(RUN, s.runId().get());
      deleteRow(run, rows.get(run));
      runs.put(s.runId().get(), Optional.empty());
    }
    if (s.sourceKey().isPresent() && snapshotForSource(s.sourceKey().get()).equals(Optional.of(s.id()))) {
      String sourceKey = s.sourceKey().get();
      byte[] source = key(SOURCE, sourceKey);
      deleteRow(source, rows.get(source));
      sources.put(sourceKey, Optional.empty());
      boolean building = building().stream().anyMatch(b -> b.sourceKey().equals(Optional.of(sourceKey)));
      if (!building) { // no writer of that key is left to fence
        byte[] fence = key(FENCE, lockOfSource.apply(sourceKey));
        deleteRow(fence, rows.get(fence));
        fences.remove(lockOfSource.apply(sourceKey));
        locksFreed.add(lockOfSource.apply(sourceKey));
      }
    }
  }

  /** Deletes a row transactionally and queues it for a physical purge once all see the delete. */
  private void deleteRow(byte[] row, NavigableMap<byte[], byte[]> columns) {
    if (columns.isEmpty()) {
      return;
    }
    for (byte[] q : columns.keySet()) {
      putOrDelete(row, q, null);
    }
    putOrDelete(purgeKey(rows.transaction().getWritePointer(), row), MARK, PRESENT);
  }

  /** Physically removes rows whose transactional delete every transaction sees by now. */
  private int purgeDeleted() {
    long bound = rows.pruneBound();
    if (bound < 0) {
      return 0;
    }
    byte[] stop = purgeKey(bound + 1, new byte[0]);
    int purged = 0;
    for (MetaRows.Row r : rows.scan(kindStart(PURGE), stop, false, 10_000)) {
      long deletedBy = Bytes.toLong(r.key(), 1);
      rows.purge(Bytes.copy(r.key(), 9, r.key().length - 9), deletedBy);
      rows.purge(r.key(), deletedBy);
      purged++;
    }
    dirty |= purged > 0; // commit, so the purges are sent
    return purged;
  }
}
