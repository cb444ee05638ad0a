package io.snapds.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.Schema;
import java.time.LocalDate;
import java.util.List;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.StringStartsWith;
import org.junit.jupiter.api.Test;

/** Filters to key ranges, without a cluster: what is pushed, what is left to Spark, and the range bytes. */
class KeyRangesTest {
  private static final Schema LONG_KEY = Schema.parse("id long key, v string");

  private static byte[] key(Schema schema, Object v) {
    return new KeyCodec(schema).encodePrefix(List.of(v));
  }

  @Test
  void rangesIntersectAndMerge() {
    KeyRanges r = KeyRanges.of(LONG_KEY, new Filter[] {new In("id", new Object[] {5L, 1L, 9L, 5L}),
        new GreaterThan("id", 1L), new EqualTo("v", "x")});
    assertEquals(2, r.pushed().size(), "the filter on v is left to Spark");
    assertEquals(2, r.ranges().size(), "1 is cut by > 1; the two 5s merge");
    assertArrayEquals(key(LONG_KEY, 5L), r.ranges().get(0).start());
    assertArrayEquals(key(LONG_KEY, 9L), r.ranges().get(1).start());
    assertEquals(0, KeyRanges.of(LONG_KEY, new Filter[] {new EqualTo("id", 3L), new LessThan("id", 3L)})
        .ranges().size(), "= 3 and < 3 allow no key");
  }

  @Test
  void whatIsNotPushedDown() {
    Schema doubleKey = Schema.parse("d double key");
    assertEquals(List.of(), KeyRanges.of(doubleKey, new Filter[] {new EqualTo("d", 0.0)}).pushed(),
        "-0.0 and 0.0 are equal to Spark but not in the key order");
    Schema dateKey = Schema.parse("day date key");
    assertEquals(List.of(), KeyRanges.of(dateKey, new Filter[] {new EqualTo("day", java.sql.Date.valueOf("2026-12-06"))})
        .pushed(), "java.sql.Date depends on the JVM's zone");
    assertEquals(1, KeyRanges.of(dateKey, new Filter[] {new EqualTo("day", LocalDate.of(2026, 12, 6))}).pushed().size());
    Schema twoKeys = Schema.parse("a long key, b long key");
    assertEquals(List.of(), KeyRanges.of(twoKeys, new Filter[] {new EqualTo("b", 1L)}).pushed(),
        "only the first key field");
    assertEquals(1, KeyRanges.of(twoKeys, new Filter[] {new EqualTo("a", 1L)}).ranges().size());
  }

  @Test
  void aStringPrefixIsTheEscapedBytesWithoutTheTerminator() {
    Schema stringKey = Schema.parse("k string key");
    KeyRanges r = KeyRanges.of(stringKey, new Filter[] {new StringStartsWith("k", "a\u0000")});
    assertArrayEquals(new byte[] {'a', 0, 1}, r.ranges().get(0).start());
    assertArrayEquals(new byte[] {'a', 0, 2}, r.ranges().get(0).stop());
  }

  @Test
  void prefixEndCarriesOverTrailingFFs() {
    assertArrayEquals(new byte[] {1, 3}, KeyRanges.prefixEnd(new byte[] {1, 2, (byte) 0xFF}));
    assertNull(KeyRanges.prefixEnd(new byte[] {(byte) 0xFF, (byte) 0xFF}));
  }
}
