package io.snapds.cdap;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A schema with every CDAP schema type (and nullable versions), and deterministic records of it:
 * record {@code i} has key fields {@code (region, id)}, and odd records leave the nullable fields
 * null.
 */
public final class AllTypes {
  public static final Schema ADDRESS = Schema.recordOf("address",
      Schema.Field.of("street", Schema.of(Schema.Type.STRING)),
      Schema.Field.of("zip", Schema.nullableOf(Schema.of(Schema.Type.INT))),
      Schema.Field.of("tags", Schema.arrayOf(Schema.of(Schema.Type.STRING))));

  public static final Schema COLOR = Schema.enumWith("red", "green", "blue");

  public static final Schema SCHEMA = Schema.recordOf("all_types",
      Schema.Field.of("region", Schema.of(Schema.Type.STRING)),
      Schema.Field.of("id", Schema.of(Schema.Type.LONG)),
      Schema.Field.of("s", Schema.of(Schema.Type.STRING)),
      Schema.Field.of("b", Schema.of(Schema.Type.BYTES)),
      Schema.Field.of("flag", Schema.of(Schema.Type.BOOLEAN)),
      Schema.Field.of("i", Schema.of(Schema.Type.INT)),
      Schema.Field.of("f", Schema.of(Schema.Type.FLOAT)),
      Schema.Field.of("d", Schema.of(Schema.Type.DOUBLE)),
      Schema.Field.of("amount", Schema.decimalOf(12, 3)),
      Schema.Field.of("day", Schema.of(Schema.LogicalType.DATE)),
      Schema.Field.of("t_ms", Schema.of(Schema.LogicalType.TIME_MILLIS)),
      Schema.Field.of("t_us", Schema.of(Schema.LogicalType.TIME_MICROS)),
      Schema.Field.of("ts_ms", Schema.of(Schema.LogicalType.TIMESTAMP_MILLIS)),
      Schema.Field.of("ts_us", Schema.of(Schema.LogicalType.TIMESTAMP_MICROS)),
      Schema.Field.of("dt", Schema.of(Schema.LogicalType.DATETIME)),
      Schema.Field.of("color", COLOR),
      Schema.Field.of("n_s", Schema.nullableOf(Schema.of(Schema.Type.STRING))),
      Schema.Field.of("n_l", Schema.nullableOf(Schema.of(Schema.Type.LONG))),
      Schema.Field.of("n_amount", Schema.nullableOf(Schema.decimalOf(20, 2))),
      Schema.Field.of("n_ts", Schema.nullableOf(Schema.of(Schema.LogicalType.TIMESTAMP_MICROS))),
      Schema.Field.of("ints", Schema.arrayOf(Schema.of(Schema.Type.INT))),
      Schema.Field.of("maybe_strings", Schema.arrayOf(Schema.nullableOf(Schema.of(Schema.Type.STRING)))),
      Schema.Field.of("doubles", Schema.arrayOf(Schema.of(Schema.Type.DOUBLE))),
      Schema.Field.of("byte_list", Schema.arrayOf(Schema.of(Schema.Type.BYTES))),
      Schema.Field.of("counts", Schema.mapOf(Schema.of(Schema.Type.STRING), Schema.of(Schema.Type.LONG))),
      Schema.Field.of("by_number", Schema.mapOf(Schema.of(Schema.Type.INT), Schema.decimalOf(10, 2))),
      Schema.Field.of("address", ADDRESS),
      Schema.Field.of("n_address", Schema.nullableOf(ADDRESS)),
      Schema.Field.of("history", Schema.arrayOf(ADDRESS)));

  private AllTypes() {
  }

  public static StructuredRecord record(int i) {
    boolean nulls = i % 2 == 1;
    Map<String, Long> counts = new TreeMap<>();
    counts.put("views", (long) i * 7);
    counts.put("clicks " + i, -1L);
    Map<Integer, ByteBuffer> byNumber = new LinkedHashMap<>();
    byNumber.put(i, decimal(new BigDecimal(i + ".25"), 2));
    byNumber.put(-i - 1, decimal(new BigDecimal("-0.01"), 2));
    StructuredRecord.Builder b = StructuredRecord.builder(SCHEMA)
        .set("region", i % 3 == 0 ? "eu" : "us\u0000west")
        .set("id", (long) i * 1_000_003L - 500)
        .set("s", "text " + i + " \u00e9\u4e2d\"quoted\"\n")
        .set("b", new byte[] {0, (byte) i, (byte) 0xFF, 0})
        .set("flag", i % 2 == 0)
        .set("i", Integer.MIN_VALUE + i)
        .set("f", i == 0 ? Float.NaN : 1.1f * i)
        .set("d", i == 2 ? Double.NEGATIVE_INFINITY : -3.3e100 * i)
        .setDecimal("amount", new BigDecimal("123456789.123").negate().add(BigDecimal.valueOf(i)))
        .setDate("day", LocalDate.of(1969, 12, 31).plusDays(i))
        .setTime("t_ms", LocalTime.of(23, 59, 59, 999_000_000).minusSeconds(i))
        .set("t_us", 86_399_999_999L - i)
        .setTimestamp("ts_ms", ZonedDateTime.of(2026, 11, 30, 6, 0, 0, 123_000_000, ZoneOffset.UTC).plusDays(i))
        .setTimestamp("ts_us", ZonedDateTime.of(1960, 1, 1, 0, 0, 0, 456_789_000, ZoneOffset.UTC).plusHours(i))
        .setDateTime("dt", LocalDateTime.of(2026, 11, 30, 12, 0).plusMinutes(i))
        .set("color", List.of("red", "green", "blue").get(i % 3))
        .set("ints", i == 3 ? List.of() : List.of(i, -i, Integer.MAX_VALUE))
        .set("maybe_strings", Arrays.asList("a" + i, null, ""))
        .set("doubles", new double[] {0.1 * i, Double.NaN, Double.POSITIVE_INFINITY, -0.0})
        .set("byte_list", List.of(ByteBuffer.wrap("x".getBytes(StandardCharsets.UTF_8)), new byte[0]))
        .set("counts", counts)
        .set("by_number", byNumber)
        .set("address", address(i))
        .set("history", List.of(address(i + 1), address(i + 2)));
    if (!nulls) {
      b.set("n_s", "present " + i)
          .set("n_l", Long.MIN_VALUE + i)
          .setDecimal("n_amount", new BigDecimal("99999999999999999.99"))
          .set("n_ts", 1_700_000_000_000_000L + i)
          .set("n_address", address(-i));
    }
    return b.build();
  }

  public static List<StructuredRecord> records(int n) {
    List<StructuredRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(record(i));
    }
    return out;
  }

  private static StructuredRecord address(int i) {
    return StructuredRecord.builder(ADDRESS).set("street", i + " Main St")
        .set("zip", i % 2 == 0 ? null : 10_000 + i)
        .set("tags", List.of("t" + i, "")).build();
  }

  private static ByteBuffer decimal(BigDecimal value, int scale) {
    return ByteBuffer.wrap(value.setScale(scale).unscaledValue().toByteArray());
  }

  /**
   * A record's values in a form with value equality, to compare records whose fields may hold the
   * same value as different Java types (byte[] or ByteBuffer, a Java array or a list).
   */
  public static Object normalize(Object value) {
    if (value instanceof StructuredRecord r) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Schema.Field f : r.getSchema().getFields()) {
        out.put(f.getName(), normalize(r.get(f.getName())));
      }
      return out;
    }
    if (value instanceof byte[] b) {
      return ByteBuffer.wrap(b);
    }
    if (value instanceof ByteBuffer b) {
      return b.duplicate();
    }
    if (value instanceof Collection<?> c) {
      List<Object> out = new ArrayList<>();
      c.forEach(v -> out.add(normalize(v)));
      return out;
    }
    if (value != null && value.getClass().isArray()) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < Array.getLength(value); i++) {
        out.add(normalize(Array.get(value, i)));
      }
      return out;
    }
    if (value instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(normalize(k), normalize(v)));
      return out;
    }
    return value;
  }
}
