package io.snapds.dataset.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.SnapshotRow;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * {@link RowEncoder} and {@link RowDecoder} against {@link RowCodec}, the one encoding: random
 * records of every type (keys of every key type, nulls, extremes, non-ASCII and NUL in strings,
 * decimals of every length) give the same row key and cells, and read back the same values.
 */
class RowEncoderAndDecoderTest {
  /** Every type, a key of every key type but decimal, in an order unlike the qualifiers' byte order. */
  private static final Schema ALL = Schema.parse("s string key, z boolean key, i int key, l long key,"
      + " f float key, d double key, b bytes key, day date key, at timestamp key, seen timestamptz key,"
      + " vs string, vflag boolean, vi int, vl long, vf float, vd double, vb bytes, small decimal(4,2),"
      + " mid decimal(18,3), big decimal(38,6), vday date, vat timestamp, vseen timestamptz not null");
  private static final String FAMILY = "d";

  private final RowCodec codec = new RowCodec(ALL, FAMILY);
  private final RowEncoder encoder = new RowEncoder(ALL);
  private final Random random = new Random(20261206);

  @Test
  void randomRecordsEncodeToTheCodecsBytesAndDecodeToItsValues() {
    int[] every = new int[ALL.fields().size()];
    for (int i = 0; i < every.length; i++) {
      every[i] = i;
    }
    RowDecoder decoder = new RowDecoder(ALL, FAMILY, every);
    for (int n = 0; n < 3000; n++) {
      Map<String, Object> values = randomValues();
      SnapshotRow expected = codec.encode(values);
      List<Field> fields = ALL.fields();
      for (int f = 0; f < fields.size(); f++) {
        set(f, fields.get(f), values.get(fields.get(f).name()));
      }
      RowEncoder.EncodedRow got = encoder.finish();
      assertArrayEquals(expected.key(), got.key(), () -> "key of " + values);
      assertEquals(cells(expected), cells(got), () -> "cells of " + values);
      assertQualifiersAscend(got);

      decoder.read(expected.key(), expected);
      SchemaRecord record = codec.decode(expected);
      for (int f = 0; f < fields.size(); f++) {
        Field field = fields.get(f);
        assertEquals(normal(record.get(field.name())), normal(get(decoder, f, field)), () -> field + " of " + values);
      }
    }
  }

  @Test
  void aRowOfNullsHasTheCodecsMarkerCell() {
    Schema s = Schema.parse("id long key, note string");
    RowEncoder e = new RowEncoder(s);
    e.setLong(0, 7);
    RowEncoder.EncodedRow got = e.finish();
    assertEquals(cells(new RowCodec(s, FAMILY).encode(Map.of("id", 7L))), cells(got));
  }

  @Test
  void aNullKeyOrRequiredFieldIsRefusedNamingIt() {
    InvalidValueException key = assertThrows(InvalidValueException.class, encoder::finish);
    assertTrue(key.getMessage().contains("key field 's'"), key.getMessage());
    Schema s = Schema.parse("id long key, must int not null");
    RowEncoder e = new RowEncoder(s);
    e.setLong(0, 1);
    InvalidValueException required = assertThrows(InvalidValueException.class, e::finish);
    assertTrue(required.getMessage().contains("non-null field 'must'"), required.getMessage());
    e.setLong(0, 2);
    e.setInt(1, 3);
    assertArrayEquals(Bytes.toBytes(3), e.finish().values()[0]); // the refused row left nothing behind
  }

  @Test
  void valuesThePrimitiveFormLeavesOpenAreChecked() {
    int small = ALL.fields().indexOf(ALL.field("small"));
    InvalidValueException digits = assertThrows(InvalidValueException.class,
        () -> encoder.setUnscaledDecimal(small, 10_000));
    assertTrue(digits.getMessage().contains("'small'") && digits.getMessage().contains("4 digits"),
        digits.getMessage());
    assertThrows(InvalidValueException.class, () -> encoder.setUnscaledDecimal(small, Long.MIN_VALUE));
    encoder.setUnscaledDecimal(small, -9_999); // -99.99 fits
    int mid = ALL.fields().indexOf(ALL.field("mid"));
    assertThrows(InvalidValueException.class, () -> encoder.setUnscaledDecimal(mid, Long.MAX_VALUE));
    int big = ALL.fields().indexOf(ALL.field("big"));
    encoder.setUnscaledDecimal(big, Long.MIN_VALUE); // 19 digits fit 38

    int vs = ALL.fields().indexOf(ALL.field("vs"));
    InvalidValueException utf8 = assertThrows(InvalidValueException.class,
        () -> encoder.setUtf8(vs, new byte[] {'a', (byte) 0xC3}));
    assertTrue(utf8.getMessage().contains("'vs'") && utf8.getMessage().contains("UTF-8"), utf8.getMessage());
    IllegalArgumentException kind = assertThrows(IllegalArgumentException.class, () -> encoder.setInt(vs, 1));
    assertTrue(kind.getMessage().contains("'vs'"), kind.getMessage());
  }

  @Test
  void storedBytesThatDoNotDecodeAreRefusedNamingTheField() {
    Schema s = Schema.parse("id int key, n int, t string");
    RowDecoder d = new RowDecoder(s, FAMILY, new int[] {0, 1, 2});
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    cells.put(Bytes.toBytes("n"), new byte[] {1, 2});
    cells.put(Bytes.toBytes("t"), new byte[] {(byte) 0xFF});
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(Bytes.toBytes(FAMILY), cells);
    byte[] key = new RowCodec(s, FAMILY).rowKey(List.of(5));
    d.read(key, new SnapshotRow(key, families));
    assertEquals(5, d.getInt(0));
    InvalidValueException n = assertThrows(InvalidValueException.class, () -> d.getInt(1));
    assertTrue(n.getMessage().contains("'n'") && n.getMessage().contains("2 bytes"), n.getMessage());
    InvalidValueException t = assertThrows(InvalidValueException.class, () -> d.getUtf8(2));
    assertTrue(t.getMessage().contains("'t'") && t.getMessage().contains("UTF-8"), t.getMessage());
    InvalidValueException shortKey = assertThrows(InvalidValueException.class,
        () -> d.read(new byte[] {1}, new SnapshotRow(key, families)));
    assertTrue(shortKey.getMessage().contains("'id'"), shortKey.getMessage());
  }

  @Test
  void theLowestTimestampsAreWrittenAsTheyAreReadThroughEveryPath() {
    Schema s = Schema.parse("at timestamptz key, wall timestamp");
    RowCodec c = new RowCodec(s, FAMILY);
    RowEncoder e = new RowEncoder(s);
    for (long micros : new long[] {Long.MIN_VALUE, -9_223_372_036_854_000_001L, Long.MAX_VALUE}) {
      SnapshotRow row = c.encode(Map.of("at", ValueCodec.instant(micros), "wall", ValueCodec.localDateTime(micros)));
      e.setLong(0, micros);
      e.setLong(1, micros);
      RowEncoder.EncodedRow got = e.finish();
      assertArrayEquals(row.key(), got.key());
      assertEquals(cells(row), cells(got));
      assertEquals(ValueCodec.instant(micros), c.decode(row).getInstant("at"));
    }
  }

  @Test
  void aRefusedRowLeavesNothingToTheNextAfterReset() {
    Schema s = Schema.parse("id long key, a string, b string");
    RowEncoder e = new RowEncoder(s);
    e.setLong(0, 1);
    e.setUtf8(1, Bytes.toBytes("stale"));
    assertThrows(InvalidValueException.class, () -> e.setUtf8(2, new byte[] {(byte) 0x80}));
    e.reset();
    e.setLong(0, 2);
    assertEquals(cells(new RowCodec(s, FAMILY).encode(Map.of("id", 2L))), cells(e.finish()));
  }

  @Test
  void aKeyWithBytesAfterItsLastFieldIsRefusedWhicheverKeyFieldIsRead() {
    Schema s = Schema.parse("a int key, b string key, v int");
    byte[] good = new RowCodec(s, FAMILY).rowKey(List.of(1, "x"));
    byte[] longer = Bytes.add(good, new byte[] {9, 9});
    RowDecoder onlyA = new RowDecoder(s, FAMILY, new int[] {0});
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> onlyA.read(longer, null));
    assertTrue(e.getMessage().contains("2 bytes after the last key field"), e.getMessage());
    onlyA.read(good, null);
    assertEquals(1, onlyA.getInt(0));
    RowDecoder noKey = new RowDecoder(s, FAMILY, new int[] {2});
    IllegalArgumentException noRow = assertThrows(IllegalArgumentException.class, () -> noKey.read(null, null));
    assertTrue(noRow.getMessage().contains("the row must not be null"), noRow.getMessage());
  }

  private void set(int f, Field field, Object v) {
    if (v == null) {
      encoder.setNull(f);
      return;
    }
    switch (field.type().kind()) {
      case BOOLEAN -> encoder.setBoolean(f, (Boolean) v);
      case INT -> encoder.setInt(f, (Integer) v);
      case DATE -> encoder.setInt(f, (int) ((LocalDate) v).toEpochDay());
      case LONG -> encoder.setLong(f, (Long) v);
      case TIMESTAMP -> encoder.setLong(f, ValueCodec.micros(field, (LocalDateTime) v));
      case TIMESTAMPTZ -> encoder.setLong(f, ValueCodec.micros(field, (Instant) v));
      case FLOAT -> encoder.setFloat(f, (Float) v);
      case DOUBLE -> encoder.setDouble(f, (Double) v);
      case STRING -> encoder.setUtf8(f, ((String) v).getBytes(StandardCharsets.UTF_8));
      case BYTES -> encoder.setBytes(f, (byte[]) v);
      case DECIMAL -> {
        BigDecimal d = (BigDecimal) v;
        if (d.unscaledValue().bitLength() < 64 && random.nextBoolean()) {
          encoder.setUnscaledDecimal(f, d.unscaledValue().longValueExact());
        } else {
          encoder.setDecimal(f, d);
        }
      }
      default -> throw new AssertionError(field);
    }
  }

  private static Object get(RowDecoder d, int f, Field field) {
    if (d.isNull(f)) {
      return null;
    }
    return switch (field.type().kind()) {
      case BOOLEAN -> d.getBoolean(f);
      case INT -> d.getInt(f);
      case DATE -> LocalDate.ofEpochDay(d.getInt(f));
      case LONG -> d.getLong(f);
      case TIMESTAMP -> ValueCodec.localDateTime(d.getLong(f));
      case TIMESTAMPTZ -> ValueCodec.instant(d.getLong(f));
      case FLOAT -> d.getFloat(f);
      case DOUBLE -> d.getDouble(f);
      case STRING -> new String(d.getUtf8(f), StandardCharsets.UTF_8);
      case BYTES -> d.getBytes(f);
      case DECIMAL -> d.getDecimal(f);
    };
  }

  /** A value comparable with equals: byte arrays as lists of their bytes, floats by their bits. */
  private static Object normal(Object v) {
    if (v instanceof byte[] b) {
      return Bytes.toStringBinary(b);
    }
    if (v instanceof Float x) {
      return "f" + Float.floatToRawIntBits(x);
    }
    if (v instanceof Double x) {
      return "d" + Double.doubleToRawLongBits(x);
    }
    return v;
  }

  private static Map<String, String> cells(SnapshotRow row) {
    Map<String, String> out = new HashMap<>();
    row.families().get(Bytes.toBytes(FAMILY)).forEach((q, v) -> out.put(Bytes.toStringBinary(q),
        Bytes.toStringBinary(v)));
    return out;
  }

  private static Map<String, String> cells(RowEncoder.EncodedRow row) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < row.qualifiers().length; i++) {
      out.put(Bytes.toStringBinary(row.qualifiers()[i]), Bytes.toStringBinary(row.values()[i]));
    }
    return out;
  }

  private static void assertQualifiersAscend(RowEncoder.EncodedRow row) {
    for (int i = 1; i < row.qualifiers().length; i++) {
      assertTrue(Bytes.compareTo(row.qualifiers()[i - 1], row.qualifiers()[i]) < 0, "cells in qualifier order");
    }
  }

  private Map<String, Object> randomValues() {
    Map<String, Object> v = new HashMap<>();
    for (Field f : ALL.fields()) {
      if (!f.isKey() && f.isNullable() && random.nextInt(4) == 0) {
        continue; // null
      }
      v.put(f.name(), randomValue(f.type()));
    }
    return v;
  }

  private Object randomValue(Type t) {
    boolean extreme = random.nextInt(5) == 0;
    return switch (t.kind()) {
      case BOOLEAN -> random.nextBoolean();
      case INT -> extreme ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt();
      case LONG -> extreme ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : random.nextLong();
      case FLOAT -> extreme ? new float[] {Float.NaN, -0.0f, Float.NEGATIVE_INFINITY, Float.MIN_VALUE}[random.nextInt(4)]
          : (random.nextFloat() - 0.5f) * 1e6f;
      case DOUBLE -> extreme ? new double[] {Double.NaN, -0.0d, Double.POSITIVE_INFINITY, -Double.MAX_VALUE}
          [random.nextInt(4)] : random.nextGaussian() * 1e12;
      case STRING -> randomString();
      case BYTES -> {
        byte[] b = new byte[random.nextInt(6)];
        random.nextBytes(b);
        yield b;
      }
      case DECIMAL -> {
        int digits = 1 + random.nextInt(t.precision());
        BigInteger unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
        yield new BigDecimal(random.nextBoolean() ? unscaled.negate() : unscaled, t.scale());
      }
      case DATE -> LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000);
      case TIMESTAMP -> ValueCodec.localDateTime(extreme ? extremeMicros() : random.nextInt() * 10_000_000L
          + random.nextInt(1_000_000));
      case TIMESTAMPTZ -> ValueCodec.instant(extreme ? extremeMicros() : random.nextInt() * 10_000_000L
          + random.nextInt(1_000_000));
    };
  }

  /** The ends of the timestamp range: every long of microseconds is a timestamp a row may hold. */
  private long extremeMicros() {
    return new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -9_223_372_036_854_000_001L, -9_223_372_036_854_000_000L,
        Long.MAX_VALUE, -1, 0}[random.nextInt(7)];
  }

  private String randomString() {
    String[] pieces = {"a", "Z", "\u0000", "\u00e9", "\u4e2d", "\ud83d\ude00", " ", "0"};
    StringBuilder b = new StringBuilder();
    for (int i = random.nextInt(6); i > 0; i--) {
      b.append(pieces[random.nextInt(pieces.length)]);
    }
    return b.toString();
  }
}
