package io.snapds.dataset.store;

import com.google.common.base.Splitter;
import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.ArrayList;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The metadata table's row layout, in one place. Transactional rows, each under a one-byte kind:
 * <pre>
 *   s                      version, current             the state row; every commit writes it
 *   n + id(8)              state, created, rows, ...    one row per snapshot
 *   h + millis(8) + version(8) + i(2)   id, reason      history of the current pointer
 *   r + runId              id                           run-id index (idempotent runs)
 *   k + sourceKey          id                           source-key index (shared builds)
 *   f + lockName           token                        highest fencing token seen per lock
 * </pre>
 * The non-transactional {@code p} row holds the dataset properties (see {@link PropertiesCodec}).
 */
final class MetadataCodec {
  static final byte STATE = 's';
  static final byte SNAPSHOT = 'n';
  static final byte HISTORY = 'h';
  static final byte RUN = 'r';
  static final byte SOURCE = 'k';
  static final byte FENCE = 'f';
  static final byte[] STATE_ROW = {STATE};

  private static final byte[] VERSION = Bytes.toBytes("version");
  private static final byte[] CURRENT = Bytes.toBytes("current");
  private static final byte[] ID = Bytes.toBytes("id");
  private static final byte[] REASON = Bytes.toBytes("reason");
  private static final byte[] TOKEN = Bytes.toBytes("token");

  private final DatasetId dataset;

  MetadataCodec(DatasetId dataset) {
    this.dataset = dataset;
  }

  /** Rebuilds the state from the visible transactional rows. */
  DatasetState decode(NavigableMap<byte[], NavigableMap<byte[], byte[]>> rows) {
    long version = 0;
    SnapshotId current = null;
    Map<SnapshotId, SnapshotInfo> snapshots = new TreeMap<>();
    List<HistoryEntry> history = new ArrayList<>();
    Map<String, SnapshotId> runs = new HashMap<>();
    Map<String, SnapshotId> sources = new HashMap<>();
    Map<String, Long> fences = new HashMap<>();
    for (var row : rows.entrySet()) {
      byte[] key = row.getKey();
      Columns cols = new Columns(dataset, key, row.getValue());
      switch (key[0]) {
        case STATE -> {
          version = cols.longValue(VERSION);
          long cur = cols.optionalLong("current", 0);
          current = cur == 0 ? null : cols.id(cur);
        }
        case SNAPSHOT -> {
          SnapshotInfo info = decodeSnapshot(cols, suffixId(key, 1, cols));
          snapshots.put(info.id(), info);
        }
        case HISTORY -> history.add(new HistoryEntry(
            Instant.ofEpochMilli(Bytes.toLong(cols.checkLength(key, 19), 1)),
            cols.id(cols.longValue(ID)), cols.string(REASON)));
        case RUN -> runs.put(Bytes.toString(key, 1, key.length - 1), cols.id(cols.longValue(ID)));
        case SOURCE -> sources.put(Bytes.toString(key, 1, key.length - 1), cols.id(cols.longValue(ID)));
        case FENCE -> fences.put(Bytes.toString(key, 1, key.length - 1), cols.longValue(TOKEN));
        default -> { } // the properties row and anything a newer version adds
      }
    }
    if (current != null && !snapshots.containsKey(current)) {
      throw new CorruptMetadataException(dataset, "s", "current snapshot " + current + " has no record");
    }
    return new DatasetState(version, current, snapshots, history, runs, sources, fences);
  }

  private SnapshotId suffixId(byte[] key, int offset, Columns cols) {
    if (key.length < offset + 8) {
      throw cols.corrupt("row key too short for a snapshot id");
    }
    return cols.id(Bytes.toLong(key, offset));
  }

  private SnapshotInfo decodeSnapshot(Columns c, SnapshotId id) {
    SnapshotState state;
    String stateName = c.string(Bytes.toBytes("state"));
    try {
      state = SnapshotState.valueOf(stateName);
    } catch (IllegalArgumentException e) {
      throw c.corrupt("unknown state '" + stateName + "'");
    }
    long parent = c.optionalLong("parent", 0);
    String tags = c.optionalString("tags");
    Set<String> tagSet = new LinkedHashSet<>();
    if (tags != null && !tags.isEmpty()) {
      Splitter.on('\n').split(tags).forEach(tagSet::add);
    }
    long committed = c.optionalLong("committed", 0);
    long cleaned = c.optionalLong("cleaned", 0);
    return SnapshotInfo.builder(id).state(state)
        .createdAt(Instant.ofEpochMilli(c.longValue(Bytes.toBytes("created"))))
        .committedAt(committed == 0 ? null : Instant.ofEpochMilli(committed))
        .rowCount(c.optionalLong("rows", 0)).byteCount(c.optionalLong("bytes", 0))
        .writer(c.optionalString("writer")).runId(c.optionalString("run"))
        .sourceKey(c.optionalString("source")).parentId(parent == 0 ? null : c.id(parent))
        .tags(tagSet).fencingToken(c.optionalLong("token", 0))
        .cleanupFence(c.optionalLong("cfence", 0))
        .cleanedAt(cleaned == 0 ? null : Instant.ofEpochMilli(cleaned))
        .summary(decodeSummary(c.optionalString("summary"))).build();
  }

  private static Map<String, String> decodeSummary(String text) {
    Map<String, String> m = new TreeMap<>();
    if (text != null && !text.isEmpty()) {
      for (String line : Splitter.on('\n').split(text)) {
        int eq = line.indexOf('=');
        m.put(eq < 0 ? line : line.substring(0, eq), eq < 0 ? "" : line.substring(eq + 1));
      }
    }
    return m;
  }

  /** Writes into {@code table} what differs between base and updated, plus the state row. */
  void encodeChanges(DatasetState base, DatasetState updated, TxMetaTable table) {
    table.put(STATE_ROW, VERSION, Bytes.toBytes(base.version() + 1));
    if (!base.current().equals(updated.current())) {
      table.put(STATE_ROW, CURRENT, Bytes.toBytes(updated.current().map(SnapshotId::value).orElse(0L)));
    }
    updated.snapshots().forEach((id, info) -> {
      if (!info.equals(base.snapshots().get(id))) {
        encodeSnapshot(info, table);
      }
    });
    List<HistoryEntry> added = updated.history().subList(base.history().size(), updated.history().size());
    for (int i = 0; i < added.size(); i++) {
      HistoryEntry h = added.get(i);
      // time, then the commit's version: unique, and in the order the changes happened
      byte[] row = Bytes.add(Bytes.add(new byte[] {HISTORY}, Bytes.toBytes(h.at().toEpochMilli())),
          Bytes.toBytes(base.version() + 1), Bytes.toBytes((short) i));
      table.put(row, ID, h.snapshot().toBytes());
      table.put(row, REASON, Bytes.toBytes(h.reason()));
    }
    updated.runIndex().forEach((run, id) -> {
      if (!id.equals(base.runIndex().get(run))) {
        table.put(Bytes.add(new byte[] {RUN}, Bytes.toBytes(run)), ID, id.toBytes());
      }
    });
    updated.sourceIndex().forEach((key, id) -> {
      if (!id.equals(base.sourceIndex().get(key))) {
        table.put(Bytes.add(new byte[] {SOURCE}, Bytes.toBytes(key)), ID, id.toBytes());
      }
    });
    updated.fences().forEach((lock, token) -> {
      if (!token.equals(base.fences().get(lock))) {
        table.put(Bytes.add(new byte[] {FENCE}, Bytes.toBytes(lock)), TOKEN, Bytes.toBytes(token));
      }
    });
  }

  private void encodeSnapshot(SnapshotInfo s, TxMetaTable t) {
    byte[] row = Bytes.add(new byte[] {SNAPSHOT}, s.id().toBytes());
    put(t, row, "state", Bytes.toBytes(s.state().name()));
    put(t, row, "created", Bytes.toBytes(s.createdAt().toEpochMilli()));
    put(t, row, "committed", s.committedAt().map(i -> Bytes.toBytes(i.toEpochMilli())).orElse(null));
    put(t, row, "rows", Bytes.toBytes(s.rowCount()));
    put(t, row, "bytes", Bytes.toBytes(s.byteCount()));
    put(t, row, "writer", Bytes.toBytes(s.writer()));
    put(t, row, "run", s.runId().map(Bytes::toBytes).orElse(null));
    put(t, row, "source", s.sourceKey().map(Bytes::toBytes).orElse(null));
    put(t, row, "parent", s.parentId().map(SnapshotId::toBytes).orElse(null));
    put(t, row, "tags", s.tags().isEmpty() ? null : Bytes.toBytes(String.join("\n", s.tags())));
    put(t, row, "token", Bytes.toBytes(s.fencingToken()));
    put(t, row, "cfence", Bytes.toBytes(s.cleanupFence()));
    StringBuilder summary = new StringBuilder();
    s.summary().forEach((k, v) -> summary.append(summary.length() == 0 ? "" : "\n").append(k).append('=').append(v));
    put(t, row, "summary", summary.length() == 0 ? null : Bytes.toBytes(summary.toString()));
    put(t, row, "cleaned", s.cleanedAt().map(i -> Bytes.toBytes(i.toEpochMilli())).orElse(null));
  }

  private static void put(TxMetaTable t, byte[] row, String qualifier, byte[] value) {
    if (value == null) {
      t.delete(row, Bytes.toBytes(qualifier));
    } else {
      t.put(row, Bytes.toBytes(qualifier), value);
    }
  }

  /** The visible columns of one row, with decoding that names the row when it fails. */
  private record Columns(DatasetId dataset, byte[] row, NavigableMap<byte[], byte[]> values) {
    CorruptMetadataException corrupt(String detail) {
      return new CorruptMetadataException(dataset, Bytes.toStringBinary(row), detail);
    }

    byte[] checkLength(byte[] key, int length) {
      if (key.length != length) {
        throw corrupt("row key must be " + length + " bytes, is " + key.length);
      }
      return key;
    }

    byte[] required(byte[] q) {
      byte[] v = values.get(q);
      if (v == null) {
        throw corrupt("missing column '" + Bytes.toString(q) + "'");
      }
      return v;
    }

    long longValue(byte[] q) {
      byte[] v = required(q);
      if (v.length != Long.BYTES) {
        throw corrupt("column '" + Bytes.toString(q) + "' must be 8 bytes, is " + v.length);
      }
      return Bytes.toLong(v);
    }

    long optionalLong(String q, long dflt) {
      byte[] key = Bytes.toBytes(q);
      return values.containsKey(key) ? longValue(key) : dflt;
    }

    String string(byte[] q) {
      return Bytes.toString(required(q));
    }

    String optionalString(String q) {
      byte[] v = values.get(Bytes.toBytes(q));
      return v == null ? null : Bytes.toString(v);
    }

    SnapshotId id(long value) {
      if (value <= 0) {
        throw corrupt("invalid snapshot id " + value);
      }
      return SnapshotId.of(value);
    }
  }
}
