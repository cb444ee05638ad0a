package io.snapds.cdap;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.dataset.testing.GoldenRecords;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@link GoldenRecords} as CDAP records, built and read with CDAP's own {@code StructuredRecord}
 * setters and getters (not the plugin's codecs): the one expected-values table of the
 * interoperability tests, in CDAP's form.
 */
public final class GoldenCdap {
  /** The golden schema in CDAP types: id a non-null long, every other field nullable. */
  public static final Schema SCHEMA = schema("golden", List.of());

  private GoldenCdap() {}

  /** The golden schema with more nullable string fields at the end (an evolved input). */
  public static Schema schema(String name, List<String> extraStrings) {
    List<Schema.Field> fields = new ArrayList<>();
    fields.add(Schema.Field.of("id", Schema.of(Schema.Type.LONG)));
    fields.add(nullable("flag", Schema.of(Schema.Type.BOOLEAN)));
    fields.add(nullable("i", Schema.of(Schema.Type.INT)));
    fields.add(nullable("l", Schema.of(Schema.Type.LONG)));
    fields.add(nullable("f", Schema.of(Schema.Type.FLOAT)));
    fields.add(nullable("d", Schema.of(Schema.Type.DOUBLE)));
    fields.add(nullable("s", Schema.of(Schema.Type.STRING)));
    fields.add(nullable("b", Schema.of(Schema.Type.BYTES)));
    fields.add(nullable("amount", Schema.decimalOf(GoldenRecords.PRECISION, GoldenRecords.SCALE)));
    fields.add(nullable("day", Schema.of(Schema.LogicalType.DATE)));
    fields.add(nullable("at", Schema.of(Schema.LogicalType.DATETIME)));
    fields.add(nullable("at_tz", Schema.of(Schema.LogicalType.TIMESTAMP_MICROS)));
    extraStrings.forEach(n -> fields.add(nullable(n, Schema.of(Schema.Type.STRING))));
    return Schema.recordOf(name, fields);
  }

  private static Schema.Field nullable(String name, Schema s) {
    return Schema.Field.of(name, Schema.nullableOf(s));
  }

  /** Golden record {@code i} (in id order) as a record of {@code schema}, extra fields set to {@code extras}. */
  public static StructuredRecord record(Schema schema, int i, Map<String, String> extras) {
    StructuredRecord.Builder b = StructuredRecord.builder(schema);
    GoldenRecords.records().get(i).forEach((name, v) -> {
      if (v instanceof BigDecimal d) {
        b.setDecimal(name, d);
      } else if (v instanceof LocalDate d) {
        b.setDate(name, d);
      } else if (v instanceof LocalDateTime t) {
        b.setDateTime(name, t);
      } else if (v instanceof Instant t) {
        b.setTimestamp(name, t.atZone(ZoneOffset.UTC));
      } else if (v instanceof byte[] bytes) {
        b.set(name, ByteBuffer.wrap(bytes));
      } else if (v != null) {
        b.set(name, v);
      }
    });
    extras.forEach(b::set);
    return b.build();
  }

  /** A CDAP record's values of the golden fields (and {@code extra} ones) in GoldenRecords' Java forms. */
  public static Map<String, Object> values(StructuredRecord r, List<String> extra) {
    Map<String, Object> out = new LinkedHashMap<>();
    List<String> names = new ArrayList<>(GoldenRecords.names());
    names.addAll(extra);
    for (String name : names) {
      Object v = r.get(name);
      if (v == null) {
        out.put(name, null);
        continue;
      }
      Schema s = r.getSchema().getField(name).getSchema();
      Schema.LogicalType logical = (s.isNullable() ? s.getNonNullable() : s).getLogicalType();
      if (logical == Schema.LogicalType.DECIMAL) {
        out.put(name, r.getDecimal(name));
      } else if (logical == Schema.LogicalType.DATE) {
        out.put(name, r.getDate(name));
      } else if (logical == Schema.LogicalType.DATETIME) {
        out.put(name, r.getDateTime(name));
      } else if (logical == Schema.LogicalType.TIMESTAMP_MICROS) {
        out.put(name, r.getTimestamp(name).toInstant());
      } else if (v instanceof ByteBuffer buffer) {
        out.put(name, Bytes.getBytes(buffer.duplicate()));
      } else {
        out.put(name, v);
      }
    }
    return comparable(out);
  }

  /** Values with byte arrays as printable text, so that maps of values compare by content. */
  public static Map<String, Object> comparable(Map<String, ?> values) {
    Map<String, Object> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k, v instanceof byte[] b ? Bytes.toStringBinary(b) : v));
    return out;
  }

  /** The golden records, comparable, with {@code extras} added to each. */
  public static List<Map<String, Object>> expected(Map<String, Object> extras) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> r : GoldenRecords.records()) {
      Map<String, Object> m = new LinkedHashMap<>(r);
      m.putAll(extras);
      out.add(comparable(m));
    }
    return out;
  }
}
