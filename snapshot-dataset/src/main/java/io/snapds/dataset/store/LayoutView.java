package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.RUN;
import static io.snapds.dataset.store.MetadataLayout.SOURCE;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.schema.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Function;
import org.apache.tephra.Transaction;

/**
 * {@link MetadataView} over the rows of {@link MetadataLayout}: one small class per row group,
 * each owning its row keys and columns, reading on demand and caching, and recording its changes
 * as column writes on the shared {@link ViewRows}; this class composes them and answers for each.
 * Shared by the HBase store and the in-memory one, so unit tests exercise this very code.
 */
final class LayoutView implements MetadataView {
  private final ViewRows rows;
  private final PointerRow pointer;
  private final OutboxRows outbox;
  private final PositionRows positions;
  private final SnapshotRows snapshots;
  private final HistoryRows history;
  private final KeyNumbers keyNumbers;
  private final SchemaRows schemas;
  private final NameIndex runs;
  private final NameIndex sources;
  private final FenceRows fences;
  private final CleanupProgressRows progress;
  private final Horizon horizon;
  private final Truncation truncation;

  LayoutView(DatasetId dataset, MetaRows metaRows, CommitClock clock) {
    rows = new ViewRows(dataset, metaRows);
    pointer = new PointerRow(rows, clock);
    outbox = new OutboxRows(rows, pointer);
    positions = new PositionRows(rows, outbox);
    snapshots = new SnapshotRows(rows, pointer, outbox);
    history = new HistoryRows(rows, pointer, outbox, snapshots);
    keyNumbers = new KeyNumbers(rows, pointer);
    schemas = new SchemaRows(rows, pointer);
    runs = new NameIndex(rows, RUN);
    sources = new NameIndex(rows, SOURCE);
    fences = new FenceRows(rows);
    progress = new CleanupProgressRows(rows);
    horizon = new Horizon(rows, pointer, history, snapshots, progress, runs, sources, fences);
    truncation = new Truncation(rows, pointer, outbox);
  }

  /** Writes the events and the pointer row if anything changed; the store calls this once, before committing. */
  void flush() {
    if (!rows.changed()) {
      return;
    }
    outbox.flush(snapshots::snapshot);
    pointer.flush();
  }

  // ---- for the format upgrade ----

  ViewRows rows() {
    return rows;
  }

  PointerRow pointer() {
    return pointer;
  }

  /** A dataset event (UPGRADED, DROPPED), with the current snapshot, if any, as context. */
  void emitDatasetEvent(DatasetEvent.Type type) {
    outbox.emitDatasetEvent(type, history.current());
  }

  // ---- MetadataView: the transaction ----

  @Override
  public Transaction transaction() {
    return rows.transaction();
  }

  @Override
  public Instant commitTime() {
    return pointer.commitTime();
  }

  @Override
  public boolean changed() {
    return rows.changed();
  }

  // ---- SnapshotsView: snapshot records and their indexes ----

  @Override
  public Optional<SnapshotInfo> snapshot(SnapshotId id) {
    return snapshots.snapshot(id);
  }

  @Override
  public List<SnapshotInfo> snapshots(Collection<SnapshotId> ids) {
    return snapshots.snapshots(ids);
  }

  @Override
  public List<SnapshotInfo> snapshots() {
    return snapshots.snapshots();
  }

  @Override
  public List<SnapshotInfo> retained() {
    return snapshots.retained();
  }

  @Override
  public List<SnapshotInfo> building() {
    return snapshots.building();
  }

  @Override
  public List<SnapshotInfo> awaitingCleanup() {
    return snapshots.awaitingCleanup();
  }

  /** See {@link PointerRow#commitNotBefore}; before anything is written. */
  void commitNotBefore(Instant at) {
    pointer.commitNotBefore(at);
  }

  @Override
  public List<SnapshotInfo> staged() {
    return snapshots.staged();
  }

  @Override
  public Optional<SnapshotId> newestCleaned() {
    return snapshots.newestCleaned();
  }

  @Override
  public Optional<SnapshotInfo> tagged(String tag) {
    return snapshots.tagged(tag);
  }

  @Override
  public void putSnapshot(SnapshotInfo info) {
    snapshots.putSnapshot(info);
  }

  // ---- HistoryView: the current pointer, its history and the horizon ----

  @Override
  public Optional<SnapshotId> current() {
    return history.current();
  }

  @Override
  public Optional<SnapshotInfo> currentInfo() {
    return history.currentInfo();
  }

  @Override
  public void moveCurrent(SnapshotId id, String reason) {
    history.moveCurrent(id, reason);
  }

  @Override
  public List<HistoryEntry> history() {
    return history.history();
  }

  @Override
  public Optional<HistoryEntry> currentAt(Instant time) {
    return history.currentAt(time);
  }

  @Override
  public Optional<Instant> historyHorizon() {
    return history.historyHorizon();
  }

  @Override
  public boolean pastHorizon(SnapshotId id) {
    return horizon.pastHorizon(id);
  }

  @Override
  public long horizonId() {
    return horizon.horizonId();
  }

  @Override
  public HorizonTrim trimToHorizon(int keepLast, Optional<Duration> maxAge, Function<String, String> lockOfSource) {
    return horizon.trimToHorizon(keepLast, maxAge, lockOfSource);
  }

  // ---- KeyNumbersView ----

  @Override
  public long lastKeyNumber() {
    return keyNumbers.lastKeyNumber();
  }

  @Override
  public long nextKeyNumber() {
    return keyNumbers.nextKeyNumber();
  }

  @Override
  public void continueKeyNumbersAbove(long lastGiven) {
    keyNumbers.continueAbove(lastGiven);
  }

  // ---- TruncationView: the truncate's mark ----

  @Override
  public long resetForTruncate() {
    return truncation.resetForTruncate();
  }

  @Override
  public long truncating() {
    return truncation.truncating();
  }

  @Override
  public void finishTruncate(long mark) {
    truncation.finishTruncate(mark);
  }

  // ---- NameIndexView: run ids, source keys and fences ----

  @Override
  public Optional<SnapshotId> snapshotForRun(String runId) {
    return runs.get(runId);
  }

  @Override
  public void putRun(String runId, SnapshotId id) {
    runs.put(runId, id);
  }

  @Override
  public Optional<SnapshotId> snapshotForSource(String sourceKey) {
    return sources.get(sourceKey);
  }

  @Override
  public void putSource(String sourceKey, SnapshotId id) {
    sources.put(sourceKey, id);
  }

  @Override
  public long fence(String lockName) {
    return fences.fence(lockName);
  }

  @Override
  public void putFence(String lockName, long token) {
    fences.putFence(lockName, token);
  }

  // ---- SchemasView ----

  @Override
  public Optional<Integer> currentSchemaId() {
    return schemas.currentSchemaId();
  }

  @Override
  public Optional<Schema> schema(int schemaId) {
    return schemas.schema(schemaId);
  }

  @Override
  public int lastFieldId(int schemaId) {
    return schemas.lastFieldId(schemaId);
  }

  @Override
  public void putSchema(int schemaId, Schema schema, int lastFieldId) {
    schemas.putSchema(schemaId, schema, lastFieldId);
  }

  // ---- OutboxView: the outbox and delivered positions ----

  @Override
  public long lastEventSequence() {
    return outbox.lastEventSequence();
  }

  @Override
  public List<DatasetEvent> events(long afterSequence, int limit) {
    return outbox.events(afterSequence, limit);
  }

  @Override
  public int trimEvents(int keepLast) {
    return outbox.trimEvents(keepLast);
  }

  @Override
  public long oldestEventSequence() {
    return outbox.oldestEventSequence();
  }

  @Override
  public boolean neverCommitted() {
    return outbox.neverCommitted();
  }

  @Override
  public void announceCreated() {
    outbox.announceCreated();
  }

  @Override
  public long droppedSequence() {
    return outbox.droppedSequence();
  }

  @Override
  public void markDropped() {
    outbox.markDropped(history.current());
  }

  @Override
  public long deliveredPosition(String name) {
    return positions.deliveredPosition(name);
  }

  @Override
  public void putDeliveredPosition(String name, long sequence) {
    positions.putDeliveredPosition(name, sequence);
  }

  @Override
  public SortedMap<String, Long> deliveredPositions() {
    return positions.deliveredPositions();
  }

  // ---- CleanupProgressView ----

  @Override
  public CleanupProgress cleanupProgress(SnapshotId id) {
    return progress.cleanupProgress(id);
  }

  @Override
  public Map<SnapshotId, CleanupProgress> cleanupProgress(Collection<SnapshotId> ids) {
    return progress.cleanupProgress(ids);
  }

  @Override
  public void putCleanupProgress(SnapshotId id, CleanupProgress p) {
    progress.putCleanupProgress(id, p);
  }
}
