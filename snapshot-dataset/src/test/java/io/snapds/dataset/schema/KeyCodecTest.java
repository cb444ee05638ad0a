package io.snapds.dataset.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The key encoding sorts as the values do, checked over random and extreme values. */
class KeyCodecTest {
  private static final long SEED = 15L;
  private final Random random = new Random(SEED);

  /** Encodes each value as a one-field key and checks byte order == natural order, and round trips. */
  private static <T> void assertOrderPreserved(Type type, List<T> values, Comparator<? super T> natural) {
    KeyCodec codec = new KeyCodec(Schema.of(Field.key(1, "k", type)));
    for (T a : values) {
      byte[] ea = codec.encode(List.of(a));
      assertEquals(List.of(a).toString(), codec.decode(ea).toString(), "round trip of " + a);
      for (T b : values) {
        byte[] eb = codec.encode(List.of(b));
        assertEquals(Integer.signum(natural.compare(a, b)), Integer.signum(Bytes.BYTES_COMPARATOR.compare(ea, eb)),
            type + ": " + a + " vs " + b);
      }
    }
  }

  private <T> List<T> randoms(Function<Random, T> gen, List<T> extremes) {
    List<T> out = new ArrayList<>(extremes);
    for (int i = 0; i < 150; i++) {
      out.add(gen.apply(random));
    }
    return out;
  }

  @Test
  void integersDatesAndTimestampsSortAsNumbers() {
    assertOrderPreserved(Type.INT, randoms(Random::nextInt, List.of(Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE)),
        Comparator.naturalOrder());
    assertOrderPreserved(Type.LONG, randoms(Random::nextLong, List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE)),
        Comparator.naturalOrder());
    assertOrderPreserved(Type.DATE, randoms(r -> LocalDate.ofEpochDay(r.nextInt(200_000) - 100_000),
        List.of(LocalDate.of(1969, 12, 31), LocalDate.EPOCH, LocalDate.of(1, 1, 1))), Comparator.naturalOrder());
    assertOrderPreserved(Type.TIMESTAMPTZ, randoms(r -> Instant.EPOCH.plusNanos((r.nextLong() % 4_000_000_000_000_000L) / 1000 * 1000),
        List.of(Instant.parse("1969-12-31T23:59:59.999999Z"), Instant.EPOCH)), Comparator.naturalOrder());
    assertOrderPreserved(Type.TIMESTAMP, randoms(r -> LocalDateTime.ofEpochSecond(r.nextInt(), r.nextInt(1_000_000) * 1000,
        ZoneOffset.UTC), List.of(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000))), Comparator.naturalOrder());
    assertOrderPreserved(Type.BOOLEAN, List.of(true, false), Comparator.naturalOrder());
  }

  @Test
  void floatsSortAsFloatCompare() {
    assertOrderPreserved(Type.FLOAT, randoms(r -> Float.intBitsToFloat(r.nextInt()) , List.of(Float.NaN,
        Float.NEGATIVE_INFINITY, -Float.MAX_VALUE, -1f, -Float.MIN_VALUE, -0.0f, 0.0f, Float.MIN_VALUE, 1f,
        Float.MAX_VALUE, Float.POSITIVE_INFINITY)), Float::compare);
    assertOrderPreserved(Type.DOUBLE, randoms(r -> Double.longBitsToDouble(r.nextLong()), List.of(Double.NaN,
        Double.NEGATIVE_INFINITY, -1d, -0.0d, 0.0d, Double.MIN_VALUE, Double.POSITIVE_INFINITY)), Double::compare);
  }

  @Test
  void stringsAndBytesSortUnsignedEvenWithZeros() {
    Function<Random, byte[]> bytes = r -> {
      byte[] b = new byte[r.nextInt(5)];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) (r.nextInt(4) - 1); // many 0x00, 0x01, 0xff
      }
      return b;
    };
    List<byte[]> b = randoms(bytes, List.of(new byte[0], new byte[] {0}, new byte[] {0, 0}, new byte[] {0, 1},
        new byte[] {1}, new byte[] {(byte) 0xff}));
    KeyCodec codec = new KeyCodec(Schema.of(Field.key(1, "k", Type.BYTES)));
    for (byte[] x : b) {
      assertArrayEquals(x, (byte[]) codec.decode(codec.encode(List.of(x))).get(0));
      for (byte[] y : b) {
        assertEquals(Integer.signum(Bytes.BYTES_COMPARATOR.compare(x, y)),
            Integer.signum(Bytes.BYTES_COMPARATOR.compare(codec.encode(List.of(x)), codec.encode(List.of(y)))));
      }
    }
    // strings sort by code point, which is UTF-8 byte order
    assertOrderPreserved(Type.STRING, randoms(r -> new String(new int[] {r.nextInt(3), 0x1F600 + r.nextInt(2),
        'a' + r.nextInt(3), 0xFFFD + r.nextInt(2)}, 0, 1 + r.nextInt(4)), List.of("", "\u0000", "a", "a\u0000", "ab")),
        Comparator.comparing(s -> s.codePoints().toArray(), Arrays::compare));
  }

  @Test
  void compositeKeysSortFieldByFieldAndPrefixesArePrefixes() {
    Schema s = Schema.parse("region string key, id long key, v double");
    KeyCodec codec = new KeyCodec(s);
    List<List<Object>> keys = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      keys.add(List.of(List.of("", "a", "a\u0000", "ab", "b").get(random.nextInt(5)), random.nextLong() % 5));
    }
    Comparator<List<Object>> natural = Comparator.<List<Object>, String>comparing(k -> (String) k.get(0))
        .thenComparing(k -> (Long) k.get(1));
    for (List<Object> a : keys) {
      byte[] ea = codec.encode(a);
      assertEquals(a, codec.decode(ea));
      assertTrue(Bytes.startsWith(ea, codec.encodePrefix(a.subList(0, 1))));
      for (List<Object> b : keys) {
        assertEquals(Integer.signum(natural.compare(a, b)), Integer.signum(Bytes.BYTES_COMPARATOR.compare(ea,
            codec.encode(b))), a + " vs " + b);
      }
    }
  }

  @Test
  void refusesNullsWrongArityAndBadKeys() {
    KeyCodec codec = new KeyCodec(Schema.parse("region string key, id long key"));
    InvalidValueException nul = assertThrows(InvalidValueException.class,
        () -> codec.encode(Arrays.asList("eu", null)));
    assertEquals("id", nul.field());
    assertEquals("key field 'id' (long) is null", nul.getMessage());
    IllegalArgumentException arity = assertThrows(IllegalArgumentException.class, () -> codec.encode(List.of("eu")));
    assertTrue(arity.getMessage().contains("expected 2 key values"), arity.getMessage());
    InvalidValueException cut = assertThrows(InvalidValueException.class,
        () -> codec.decode(new byte[] {'e', 'u', 0, 0, 1, 2}));
    assertEquals("id", cut.field());
    assertTrue(cut.getMessage().contains("ends inside this field"), cut.getMessage());
    InvalidValueException escape = assertThrows(InvalidValueException.class,
        () -> codec.decode(new byte[] {'e', 0, 7}));
    assertEquals("region", escape.field());
  }
}
