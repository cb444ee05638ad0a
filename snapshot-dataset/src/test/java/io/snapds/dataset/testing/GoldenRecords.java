package io.snapds.dataset.testing;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one record set every adapter's interoperability test writes or reads (#15): a field of every
 * type a dataset schema has, with nulls and the values engines get wrong (minimum and maximum
 * longs and ints, negative decimals, dates before 1970, timestamps before 1970 and with
 * microseconds). Expressed in plain Java values, so that each adapter's test converts them to
 * its engine's own form (a CDAP {@code StructuredRecord}, Hive's printed row, the command line's
 * JSON) without sharing a class path with the others:
 * <ul>
 *   <li>boolean: Boolean; int: Integer; long: Long; float: Float; double: Double;</li>
 *   <li>string: String; bytes: byte[];</li>
 *   <li>decimal(18,4): BigDecimal of scale 4;</li>
 *   <li>date: LocalDate; timestamp (microseconds, no zone): LocalDateTime; timestamptz
 *       (microseconds, an instant): Instant.</li>
 * </ul>
 * NaN and infinities are left out on purpose: JSON has no form for them. The key field {@code id}
 * is never null; every other field is nullable, and record 2 has all of them null.
 */
public final class GoldenRecords {
  /** Field names and their types, in the schema-text form {@code 'name type'}; {@code id} is the key. */
  public static final List<String> FIELDS = List.of("id long key", "flag boolean", "i int", "l long", "f float",
      "d double", "s string", "b bytes", "amount decimal(18,4)", "day date", "at timestamp", "at_tz timestamptz");

  /** Decimal precision and scale of {@code amount}. */
  public static final int PRECISION = 18;
  public static final int SCALE = 4;

  private static final List<Map<String, Object>> RECORDS = List.of(
      record(Long.MIN_VALUE, false, Integer.MIN_VALUE, Long.MIN_VALUE, -Float.MAX_VALUE, -Double.MAX_VALUE, "",
          new byte[0], new BigDecimal("-99999999999999.9999"), LocalDate.of(1900, 1, 1),
          LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000), Instant.parse("1969-12-31T23:59:59.999999Z")),
      record(Long.MAX_VALUE, true, Integer.MAX_VALUE, Long.MAX_VALUE, Float.MAX_VALUE, Double.MAX_VALUE,
          "z\u00e9\u4e2d\uD83D\uDE00 \"quoted\"\ttab", new byte[] {0, (byte) 0xFF, 0, 127, -128},
          new BigDecimal("99999999999999.9999"), LocalDate.of(9999, 12, 31),
          LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_000), Instant.parse("2262-04-11T23:47:16.854775Z")),
      record(0L, null, null, null, null, null, null, null, null, null, null, null),
      record(-1L, true, -1, -1L, -1.5f, -0.1, "minus one", new byte[] {1}, new BigDecimal("-0.0001"),
          LocalDate.of(1969, 12, 31), LocalDateTime.of(1960, 1, 1, 0, 0, 0, 1_000), Instant.parse("1960-01-01T00:00:00.000001Z")),
      record(42L, false, 0, 0L, 0.0f, 0.0, "forty-two", new byte[] {42}, new BigDecimal("12.3400"),
          LocalDate.of(1970, 1, 1), LocalDateTime.of(1970, 1, 1, 0, 0), Instant.EPOCH),
      record(1_764_489_330_123_456L, true, 123_456_789, 1_764_489_330_123_456L, 3.25f, 2.718281828459045,
          "a\u0000b", new byte[] {(byte) 0x80}, new BigDecimal("-12345.6789"), LocalDate.of(2026, 11, 30),
          LocalDateTime.of(2026, 11, 30, 8, 15, 30, 123_456_000), Instant.parse("2026-11-30T08:15:30.123456Z")));

  private GoldenRecords() {}

  /** The records, in ascending {@code id} order (the order of an order-preserving key scan). */
  public static List<Map<String, Object>> records() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> r : RECORDS) {
      Map<String, Object> copy = new LinkedHashMap<>();
      r.forEach((k, v) -> copy.put(k, v instanceof byte[] b ? b.clone() : v));
      out.add(Collections.unmodifiableMap(copy));
    }
    out.sort((a, b) -> Long.compare((Long) a.get("id"), (Long) b.get("id")));
    return out;
  }

  /** The field names, in schema order. */
  public static List<String> names() {
    List<String> out = new ArrayList<>();
    FIELDS.forEach(f -> out.add(f.split(" ")[0]));
    return out;
  }

  /** The schema as one line of schema text: {@code 'id long key, flag boolean, ...'}. */
  public static String schemaText() {
    return String.join(", ", FIELDS);
  }

  private static Map<String, Object> record(long id, Boolean flag, Integer i, Long l, Float f, Double d, String s,
      byte[] b, BigDecimal amount, LocalDate day, LocalDateTime at, Instant atTz) {
    List<Object> values = Arrays.asList(id, flag, i, l, f, d, s, b, amount == null ? null : amount.setScale(SCALE),
        day, at, atTz);
    Map<String, Object> out = new LinkedHashMap<>();
    List<String> names = names();
    for (int k = 0; k < names.size(); k++) {
      out.put(names.get(k), values.get(k));
    }
    return out;
  }
}
