package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class KeyRangeTest {
  private static KeyRange range(String start, String stop) {
    return KeyRange.of(start == null ? null : Bytes.toBytes(start), stop == null ? null : Bytes.toBytes(stop));
  }

  @Test
  void pointContainsOnlyItsKey() {
    KeyRange p = KeyRange.point(Bytes.toBytes("b"));
    assertTrue(p.contains(Bytes.toBytes("b")));
    assertFalse(p.contains(Bytes.toBytes("b\0")));
    assertFalse(p.contains(Bytes.toBytes("a\u00ff")));
  }

  @Test
  void intersectionOfRangeSets() {
    List<KeyRange> in = KeyRange.merge(List.of(KeyRange.point(Bytes.toBytes("k")), KeyRange.point(Bytes.toBytes("c"))));
    assertEquals(List.of(KeyRange.point(Bytes.toBytes("c"))), KeyRange.intersect(in, List.of(range("a", "f"))));
    assertEquals(List.of(), KeyRange.intersect(List.of(range("a", "c")), List.of(range("c", null))));
    assertEquals(List.of(range("b", "c")), KeyRange.intersect(List.of(range(null, "c")), List.of(range("b", null))));
  }

  @Test
  void mergeJoinsOverlappingAndTouchingRanges() {
    assertEquals(List.of(range("a", "e"), range("f", null)),
        KeyRange.merge(List.of(range("f", null), range("c", "e"), range("a", "c"), range("b", "d"))));
  }

  @Test
  void prefixEndIsTheFirstKeyPastEveryKeyWithThePrefix() {
    org.junit.jupiter.api.Assertions.assertArrayEquals(new byte[] {1, 3}, KeyRange.prefixEnd(new byte[] {1, 2}));
    org.junit.jupiter.api.Assertions.assertArrayEquals(new byte[] {2}, KeyRange.prefixEnd(new byte[] {1, (byte) 0xFF}));
    org.junit.jupiter.api.Assertions.assertNull(KeyRange.prefixEnd(new byte[] {(byte) 0xFF, (byte) 0xFF}));
  }

  @Test
  void rejectsAStartAfterTheStop() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> range("b", "a"));
    assertEquals("range start b is after its stop a", e.getMessage());
  }
}
