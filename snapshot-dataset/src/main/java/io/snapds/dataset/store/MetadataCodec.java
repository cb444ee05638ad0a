package io.snapds.dataset.store;

import com.google.common.base.Splitter;
import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The columns of a snapshot record ({@code n + id} row): one line per {@link SnapshotInfo}
 * field, so a new field is one new line here. A column whose value would be the default is
 * absent. {@link #changes} gives the columns that differ between two records, so a state change
 * writes one or two columns, not all of them.
 */
final class MetadataCodec {
  /** One field: its column, how to write it (null = absent), how to read it into a builder. */
  private record Field(String column, Function<SnapshotInfo, byte[]> encode, Decoder decode) {}

  @FunctionalInterface
  private interface Decoder {
    void apply(SnapshotInfo.Builder b, Columns c);
  }

  private static final List<Field> FIELDS = List.of(
      new Field("state", s -> Bytes.toBytes(s.state().name()), (b, c) -> b.state(c.state())),
      new Field("created", s -> millis(s.createdAt()), (b, c) -> b.createdAt(c.instant("created", true))),
      new Field("committed", s -> s.committedAt().map(MetadataCodec::millis).orElse(null),
          (b, c) -> b.committedAt(c.instant("committed", false))),
      new Field("rows", s -> nonZero(s.rowCount()), (b, c) -> b.rowCount(c.optionalLong("rows", 0))),
      new Field("bytes", s -> nonZero(s.byteCount()), (b, c) -> b.byteCount(c.optionalLong("bytes", 0))),
      new Field("writer", s -> s.writer().isEmpty() ? null : Bytes.toBytes(s.writer()),
          (b, c) -> b.writer(c.optionalString("writer"))),
      new Field("run", s -> s.runId().map(Bytes::toBytes).orElse(null), (b, c) -> b.runId(c.optionalString("run"))),
      new Field("source", s -> s.sourceKey().map(Bytes::toBytes).orElse(null),
          (b, c) -> b.sourceKey(c.optionalString("source"))),
      new Field("parent", s -> s.parentId().map(SnapshotId::toBytes).orElse(null), (b, c) -> b.parentId(c.optionalId("parent"))),
      new Field("tags", s -> s.tags().isEmpty() ? null : Bytes.toBytes(String.join("\n", s.tags())),
          (b, c) -> b.tags(c.lines("tags"))),
      new Field("token", s -> nonZero(s.fencingToken()), (b, c) -> b.fencingToken(c.optionalLong("token", 0))),
      new Field("cfence", s -> nonZero(s.cleanupFence()), (b, c) -> b.cleanupFence(c.optionalLong("cfence", 0))),
      new Field("cleaned", s -> s.cleanedAt().map(MetadataCodec::millis).orElse(null),
          (b, c) -> b.cleanedAt(c.instant("cleaned", false))),
      new Field("summary", MetadataCodec::encodeSummary, (b, c) -> b.summary(c.summary())),
      new Field("schema", s -> s.schemaId().map(Bytes::toBytes).orElse(null), (b, c) -> b.schemaId(c.optionalInt("schema"))),
      new Field("keyno", s -> nonZero(s.keyNumber()), (b, c) -> b.keyNumber(c.keyNumber())),
      new Field("staged", s -> s.stagedAt().map(MetadataCodec::millis).orElse(null),
          (b, c) -> b.stagedAt(c.instant("staged", false))),
      // the group's id, then one line per member dataset
      new Field("group", s -> s.group().map(g -> Bytes.toBytes(String.join("\n",
          com.google.common.collect.Iterables.concat(List.of(g), s.groupMembers())))).orElse(null),
          (b, c) -> {
            List<String> lines = new java.util.ArrayList<>(c.lines("group"));
            b.group(lines.isEmpty() ? null : lines.get(0), new java.util.TreeSet<>(lines.subList(Math.min(1,
                lines.size()), lines.size())));
          }));

  private static final Map<String, byte[]> QUALIFIERS = new TreeMap<>();

  static {
    FIELDS.forEach(f -> QUALIFIERS.put(f.column(), Bytes.toBytes(f.column())));
  }

  private MetadataCodec() {}

  static SnapshotInfo decode(DatasetId dataset, byte[] row, SnapshotId id, NavigableMap<byte[], byte[]> cols) {
    Columns c = new Columns(dataset, row, cols);
    SnapshotInfo.Builder b = SnapshotInfo.builder(id);
    for (Field f : FIELDS) {
      f.decode().apply(b, c);
    }
    return b.build();
  }

  /**
   * Calls {@code out} with (column, value) for every column that differs between {@code before}
   * (null: nothing recorded) and {@code after}; a null value means "delete the column".
   */
  static void changes(SnapshotInfo before, SnapshotInfo after, BiConsumer<byte[], byte[]> out) {
    for (Field f : FIELDS) {
      byte[] now = f.encode().apply(after);
      byte[] was = before == null ? null : f.encode().apply(before);
      if (!Objects.deepEquals(was, now)) {
        out.accept(QUALIFIERS.get(f.column()), now);
      }
    }
  }

  private static byte[] millis(Instant t) {
    return Bytes.toBytes(t.toEpochMilli());
  }

  private static byte[] nonZero(long v) {
    return v == 0 ? null : Bytes.toBytes(v);
  }

  private static byte[] encodeSummary(SnapshotInfo s) {
    if (s.summary().isEmpty()) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    s.summary().forEach((k, v) -> out.append(out.length() == 0 ? "" : "\n").append(k).append('=').append(v));
    return Bytes.toBytes(out.toString());
  }

  /** The visible columns of one row, with decoding that names the row when it fails. */
  record Columns(DatasetId dataset, byte[] row, NavigableMap<byte[], byte[]> values) {
    CorruptMetadataException corrupt(String detail) {
      return new CorruptMetadataException(dataset, Bytes.toStringBinary(row), detail);
    }

    byte[] required(String q) {
      byte[] v = values.get(Bytes.toBytes(q));
      if (v == null) {
        throw corrupt("missing column '" + q + "'");
      }
      return v;
    }

    long longValue(String q) {
      byte[] v = required(q);
      if (v.length != Long.BYTES) {
        throw corrupt("column '" + q + "' must be 8 bytes, is " + v.length);
      }
      return Bytes.toLong(v);
    }

    long optionalLong(String q, long dflt) {
      return values.containsKey(Bytes.toBytes(q)) ? longValue(q) : dflt;
    }

    /** A 4-byte int column, or null when absent. */
    Integer optionalInt(String q) {
      byte[] v = values.get(Bytes.toBytes(q));
      if (v == null) {
        return null;
      }
      if (v.length != Integer.BYTES) {
        throw corrupt("column '" + q + "' must be 4 bytes, is " + v.length);
      }
      return Bytes.toInt(v);
    }

    String string(String q) {
      return Bytes.toString(required(q));
    }

    String optionalString(String q) {
      byte[] v = values.get(Bytes.toBytes(q));
      return v == null ? null : Bytes.toString(v);
    }

    Instant instant(String q, boolean required) {
      if (!required && !values.containsKey(Bytes.toBytes(q))) {
        return null;
      }
      long v = longValue(q);
      return !required && v == 0 ? null : Instant.ofEpochMilli(v);
    }

    /** The same reads for a qualifier given as its bytes (the row groups keep theirs so). */
    long longValue(byte[] q) {
      return longValue(Bytes.toString(q));
    }

    long optionalLong(byte[] q, long dflt) {
      return optionalLong(Bytes.toString(q), dflt);
    }

    Integer optionalInt(byte[] q) {
      return optionalInt(Bytes.toString(q));
    }

    String string(byte[] q) {
      return string(Bytes.toString(q));
    }

    SnapshotId id(long value) {
      if (value <= 0) {
        throw corrupt("invalid snapshot id " + value);
      }
      return SnapshotId.of(value);
    }

    SnapshotId optionalId(String q) {
      long v = optionalLong(q, 0);
      return v == 0 ? null : id(v);
    }

    long keyNumber() {
      long n = optionalLong("keyno", 0);
      if (n < 0 || n > io.snapds.dataset.SnapshotKeys.MAX_NUMBER) {
        throw corrupt("invalid key number " + n);
      }
      return n;
    }

    SnapshotState state() {
      String name = string("state");
      try {
        return SnapshotState.valueOf(name);
      } catch (IllegalArgumentException e) {
        throw corrupt("unknown state '" + name + "'");
      }
    }

    Set<String> lines(String q) {
      String text = optionalString(q);
      Set<String> out = new LinkedHashSet<>();
      if (text != null && !text.isEmpty()) {
        Splitter.on('\n').split(text).forEach(out::add);
      }
      return out;
    }

    Map<String, String> summary() {
      Map<String, String> m = new TreeMap<>();
      for (String line : lines("summary")) {
        int eq = line.indexOf('=');
        m.put(eq < 0 ? line : line.substring(0, eq), eq < 0 ? "" : line.substring(eq + 1));
      }
      return m;
    }
  }
}
