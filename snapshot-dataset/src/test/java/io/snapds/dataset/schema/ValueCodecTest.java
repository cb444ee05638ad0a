package io.snapds.dataset.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class ValueCodecTest {
  private static Object roundTrip(Type type, Object value) {
    Field f = Field.optional(1, "f", type);
    return ValueCodec.decode(f, ValueCodec.encode(f, value));
  }

  @Test
  void extremesRoundTrip() {
    for (long v : new long[] {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE}) {
      assertEquals(v, roundTrip(Type.LONG, v));
    }
    for (int v : new int[] {Integer.MIN_VALUE, -1, 0, Integer.MAX_VALUE}) {
      assertEquals(v, roundTrip(Type.INT, v));
    }
    assertEquals(true, roundTrip(Type.BOOLEAN, true));
    assertEquals(false, roundTrip(Type.BOOLEAN, false));
    assertTrue(Float.isNaN((Float) roundTrip(Type.FLOAT, Float.NaN)));
    assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits((Float) roundTrip(Type.FLOAT, -0.0f)));
    assertTrue(Double.isNaN((Double) roundTrip(Type.DOUBLE, Double.NaN)));
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) roundTrip(Type.DOUBLE, -0.0)));
    assertEquals(Double.MIN_VALUE, roundTrip(Type.DOUBLE, Double.MIN_VALUE));
    assertEquals(Double.NEGATIVE_INFINITY, roundTrip(Type.DOUBLE, Double.NEGATIVE_INFINITY));
    assertEquals("", roundTrip(Type.STRING, ""));
    assertEquals("h\u00e9llo \uD83D\uDE00 \u0000", roundTrip(Type.STRING, "h\u00e9llo \uD83D\uDE00 \u0000"));
    assertArrayEquals(new byte[] {0, -1, 1}, (byte[]) roundTrip(Type.BYTES, new byte[] {0, -1, 1}));
    assertEquals(new BigDecimal("-12345678.90"), roundTrip(Type.decimal(10, 2), new BigDecimal("-12345678.9")));
    assertEquals(new BigDecimal("99999999999999999999999999999999999999"),
        roundTrip(Type.decimal(38, 0), new BigDecimal("99999999999999999999999999999999999999")));
    assertEquals(new BigDecimal("-0.01"), roundTrip(Type.decimal(3, 2), new BigDecimal("-0.01")));
    assertEquals(LocalDate.of(1901, 2, 3), roundTrip(Type.DATE, LocalDate.of(1901, 2, 3)));
    assertEquals(LocalDate.of(1969, 12, 31), roundTrip(Type.DATE, LocalDate.of(1969, 12, 31)));
    Instant before = Instant.parse("1969-07-20T20:17:40.123456Z");
    assertEquals(before, roundTrip(Type.TIMESTAMPTZ, before));
    LocalDateTime local = LocalDateTime.of(2026, 12, 1, 23, 59, 59, 999_999_000);
    assertEquals(local, roundTrip(Type.TIMESTAMP, local));
    assertEquals(LocalDateTime.of(1960, 1, 1, 0, 0, 0, 1000), roundTrip(Type.TIMESTAMP,
        LocalDateTime.of(1960, 1, 1, 0, 0, 0, 1000)));
  }

  @Test
  void theBytesAreTheDocumentedOnes() {
    assertArrayEquals(Bytes.toBytes(-1L), ValueCodec.encode(Field.optional(1, "f", Type.LONG), -1L));
    assertArrayEquals(new byte[] {(byte) 0xff, 0x0c}, ValueCodec.encode(Field.optional(1, "f", Type.decimal(5, 2)),
        new BigDecimal("-2.44"))); // unscaled -244
    assertArrayEquals(Bytes.toBytes(-1), ValueCodec.encode(Field.optional(1, "f", Type.DATE), LocalDate.of(1969, 12, 31)));
    assertArrayEquals(Bytes.toBytes(-1L), ValueCodec.encode(Field.optional(1, "f", Type.TIMESTAMPTZ),
        Instant.parse("1969-12-31T23:59:59.999999Z")));
    assertArrayEquals(Bytes.toBytes(1_000_001L), ValueCodec.encode(Field.optional(1, "f", Type.TIMESTAMP),
        LocalDateTime.of(1970, 1, 1, 0, 0, 1, 1000)));
    assertArrayEquals(new byte[] {1}, ValueCodec.encode(Field.optional(1, "f", Type.BOOLEAN), true));
  }

  @Test
  void widensLosslessly() {
    assertEquals(7L, ValueCodec.check(Field.optional(1, "f", Type.LONG), 7));
    assertEquals(1.5d, ValueCodec.check(Field.optional(1, "f", Type.DOUBLE), 1.5f));
    assertEquals(new BigDecimal("1.50"), ValueCodec.check(Field.optional(1, "f", Type.decimal(4, 2)),
        new BigDecimal("1.5")));
    assertNull(ValueCodec.check(Field.optional(1, "f", Type.INT), null));
  }

  @Test
  void refusesValuesThatDoNotFitNamingFieldAndValue() {
    List<Object[]> bad = List.of(
        new Object[] {Type.INT, 5L, "value 5 of field 'price' (int) has the wrong class java.lang.Long"},
        new Object[] {Type.FLOAT, 1.5d, "has the wrong class java.lang.Double"},
        new Object[] {Type.decimal(4, 2), new BigDecimal("1.234"), "value 1.234 of field 'price' (decimal(4,2)) "
            + "has more than 2 digits after the point"},
        new Object[] {Type.decimal(4, 2), new BigDecimal("123.4"), "has more than 4 digits"},
        new Object[] {Type.TIMESTAMPTZ, Instant.parse("2020-01-01T00:00:00.000000001Z"), "has nanoseconds"},
        new Object[] {Type.TIMESTAMPTZ, Instant.ofEpochSecond(Instant.MAX.getEpochSecond()), "out of the timestamp range"},
        new Object[] {Type.DATE, LocalDate.MAX, "out of the date range"},
        new Object[] {Type.STRING, "\uD800", "lone surrogate"},
        new Object[] {Type.STRING, 3, "wrong class java.lang.Integer"});
    for (Object[] b : bad) {
      InvalidValueException e = assertThrows(InvalidValueException.class,
          () -> ValueCodec.check(Field.optional(1, "price", (Type) b[0]), b[1]));
      assertEquals("price", e.field());
      assertEquals(b[1], e.value());
      assertTrue(e.getMessage().contains((String) b[2]), e.getMessage());
    }
    InvalidValueException nul = assertThrows(InvalidValueException.class,
        () -> ValueCodec.check(Field.required(1, "name", Type.STRING), null));
    assertEquals("non-null field 'name' (string) is null", nul.getMessage());
  }

  @Test
  void refusesStoredBytesOfTheWrongShape() {
    InvalidValueException len = assertThrows(InvalidValueException.class,
        () -> ValueCodec.decode(Field.optional(1, "n", Type.LONG), new byte[3]));
    assertTrue(len.getMessage().contains("field 'n' (long) has 3 bytes, not 8"), len.getMessage());
    InvalidValueException utf = assertThrows(InvalidValueException.class,
        () -> ValueCodec.decode(Field.optional(1, "s", Type.STRING), new byte[] {(byte) 0xff}));
    assertTrue(utf.getMessage().contains("is not UTF-8"), utf.getMessage());
    assertThrows(InvalidValueException.class,
        () -> ValueCodec.decode(Field.optional(1, "d", Type.decimal(2, 0)), Bytes.toBytes(1000)));
  }
}
