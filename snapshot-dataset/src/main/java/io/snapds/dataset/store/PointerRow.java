package io.snapds.dataset.store;

import io.snapds.dataset.SnapshotKeys;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.NavigableMap;
import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The pointer row {@code s}: the one row every metadata commit writes, holding the columns of
 * several row groups. Read once per view, on first use; {@link #flush} writes {@code version + 1}
 * (so two commits from the same base always conflict) and the other columns only when they
 * changed (each write is a version to prune later).
 */
final class PointerRow {
  static final byte[] ROW = {MetadataLayout.STATE};
  /** The commit counter. */
  static final byte[] VERSION = Bytes.toBytes("version");
  /** The current snapshot's id ({@link HistoryRows}). */
  static final byte[] CURRENT = Bytes.toBytes("current");
  /** History rows kept ({@link HistoryRows}). */
  static final byte[] HISTORY_COUNT = Bytes.toBytes("hcount");
  /** Cleaned records kept ({@link SnapshotRows}). */
  static final byte[] CLEANED_COUNT = Bytes.toBytes("dcount");
  /** The newest history entry's time ({@link HistoryRows}). */
  static final byte[] LAST_AT = Bytes.toBytes("last.at");
  /** The newest history time the horizon deleted ({@link HistoryRows}). */
  static final byte[] HORIZON_AT = Bytes.toBytes("horizon.at");
  /** The newest snapshot id whose record the horizon deleted ({@link Horizon}). */
  static final byte[] HORIZON_ID = Bytes.toBytes("horizon.id");
  /** The current schema id ({@link SchemaRows}). */
  static final byte[] SCHEMA = Bytes.toBytes("schema");
  /** The last outbox sequence ({@link OutboxRows}). */
  static final byte[] EVENT_SEQ = Bytes.toBytes("eseq");
  /** The sequence of the DROPPED event, once the dataset is being dropped ({@link OutboxRows}, #13). */
  static final byte[] DROPPED = Bytes.toBytes("dropped");
  /** The last key number given ({@link KeyNumbers}, format 3). */
  static final byte[] KEY_NUMBERS = Bytes.toBytes("kno");
  /**
   * The write pointer of the transaction that reset the metadata for a truncate, until the truncate
   * has emptied the data table; no snapshot begins meanwhile ({@link Truncation}, #36).
   */
  static final byte[] TRUNCATING = Bytes.toBytes("trunc");

  /** The row's values; each row group changes its own in place. */
  static final class Values {
    long version;
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

    Values copy() {
      Values c = new Values();
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

  private final ViewRows rows;
  private final CommitClock clock;
  private Values committed;
  private Values values;
  private Instant commitTime;

  PointerRow(ViewRows rows, CommitClock clock) {
    this.rows = rows;
    this.clock = clock;
  }

  /** The values as this transaction changed them. */
  Values values() {
    load();
    return values;
  }

  /** The values as read (what the last commit this transaction sees left). */
  Values committed() {
    load();
    return committed;
  }

  private void load() {
    if (values != null) {
      return;
    }
    NavigableMap<byte[], byte[]> cols = rows.get(ROW);
    MetadataCodec.Columns c = rows.columns(ROW, cols);
    Values p = new Values();
    p.version = c.optionalLong(VERSION, 0);
    long cur = c.optionalLong(CURRENT, 0);
    p.current = cur == 0 ? null : cur;
    p.historyCount = c.optionalLong(HISTORY_COUNT, 0);
    p.cleanedCount = c.optionalLong(CLEANED_COUNT, 0);
    p.lastAt = cols.containsKey(LAST_AT) ? c.longValue(LAST_AT) : null;
    p.horizonAt = cols.containsKey(HORIZON_AT) ? c.longValue(HORIZON_AT) : null;
    p.horizonId = c.optionalLong(HORIZON_ID, 0);
    p.schema = c.optionalInt(SCHEMA);
    p.eventSeq = c.optionalLong(EVENT_SEQ, 0);
    p.dropped = c.optionalLong(DROPPED, 0);
    p.keyNumbers = c.optionalLong(KEY_NUMBERS, 0);
    p.truncating = c.optionalLong(TRUNCATING, 0);
    if (p.keyNumbers < 0 || p.keyNumbers > SnapshotKeys.MAX_NUMBER) {
      throw c.corrupt("invalid key number counter kno " + p.keyNumbers);
    }
    committed = p.copy();
    values = p;
  }

  /**
   * The commit time of this transaction: the transaction manager's clock (encoded in the write
   * pointer) and never before {@code last.at}, so times follow the commit order.
   */
  Instant commitTime() {
    if (commitTime == null) {
      Instant at = clock.at(rows.transaction()).truncatedTo(ChronoUnit.MILLIS);
      Long last = values().lastAt;
      commitTime = last != null && at.toEpochMilli() <= last ? Instant.ofEpochMilli(last + 1) : at;
    }
    return commitTime;
  }

  /**
   * Moves this transaction's commit time to {@code at} if that is later: one transaction over
   * several datasets records one time in all of them, so that time travel by time sees every
   * member of a publish group from the same instant.
   */
  void commitNotBefore(Instant at) {
    if (at.isAfter(commitTime())) {
      commitTime = at;
    }
  }

  /** For the format upgrade: sets the counters from a full count, written even if unchanged. */
  void resetCounters(long historyCount, long cleanedCount, Long lastAt) {
    Values p = values();
    committed.historyCount = -1; // always written: the upgrade records them for the first time
    committed.cleanedCount = -1;
    committed.lastAt = null;
    p.historyCount = historyCount;
    p.cleanedCount = cleanedCount;
    p.lastAt = lastAt;
    rows.markChanged();
  }

  /** Writes the version and the columns that changed; the store calls this once, before committing. */
  void flush() {
    Values p = values();
    Values was = committed;
    rows.write(ROW, VERSION, Bytes.toBytes(p.version + 1));
    if (!Objects.equals(was.current, p.current)) {
      rows.write(ROW, CURRENT, p.current == null ? null : Bytes.toBytes(p.current));
    }
    if (was.historyCount != p.historyCount) {
      rows.write(ROW, HISTORY_COUNT, Bytes.toBytes(p.historyCount));
    }
    if (was.cleanedCount != p.cleanedCount) {
      rows.write(ROW, CLEANED_COUNT, Bytes.toBytes(p.cleanedCount));
    }
    if (!Objects.equals(was.lastAt, p.lastAt)) {
      rows.write(ROW, LAST_AT, p.lastAt == null ? null : Bytes.toBytes(p.lastAt));
    }
    if (!Objects.equals(was.horizonAt, p.horizonAt)) {
      rows.write(ROW, HORIZON_AT, p.horizonAt == null ? null : Bytes.toBytes(p.horizonAt));
    }
    if (was.horizonId != p.horizonId) {
      rows.write(ROW, HORIZON_ID, p.horizonId == 0 ? null : Bytes.toBytes(p.horizonId));
    }
    if (!Objects.equals(was.schema, p.schema)) {
      rows.write(ROW, SCHEMA, p.schema == null ? null : Bytes.toBytes(p.schema));
    }
    if (was.eventSeq != p.eventSeq) {
      rows.write(ROW, EVENT_SEQ, Bytes.toBytes(p.eventSeq));
    }
    if (was.dropped != p.dropped) {
      rows.write(ROW, DROPPED, Bytes.toBytes(p.dropped));
    }
    if (was.keyNumbers != p.keyNumbers) {
      rows.write(ROW, KEY_NUMBERS, Bytes.toBytes(p.keyNumbers));
    }
    if (was.truncating != p.truncating) {
      rows.write(ROW, TRUNCATING, p.truncating == 0 ? null : Bytes.toBytes(p.truncating));
    }
  }
}
