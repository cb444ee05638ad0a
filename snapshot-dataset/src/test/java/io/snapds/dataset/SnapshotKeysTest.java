package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The row-key prefixes of snapshots: their bytes, their order, and that no two ranges overlap. */
class SnapshotKeysTest {
  private static final SnapshotId ID = SnapshotId.of(1_796_000_000_000_000_000L);

  @Test
  void aNumberIsALengthByteAndItsBigEndianBytesWithoutLeadingZeros() {
    assertArrayEquals(new byte[] {1, 1}, SnapshotKeys.numbered(ID, 1).prefix());
    assertArrayEquals(new byte[] {1, (byte) 0xff}, SnapshotKeys.numbered(ID, 255).prefix());
    assertArrayEquals(new byte[] {2, 1, 0}, SnapshotKeys.numbered(ID, 256).prefix());
    assertArrayEquals(new byte[] {3, 1, 0, 0}, SnapshotKeys.numbered(ID, 65_536).prefix());
    assertEquals(8, SnapshotKeys.numbered(ID, SnapshotKeys.MAX_NUMBER).prefixLength());
    assertArrayEquals(ID.toBytes(), SnapshotKeys.legacy(ID).prefix());
    // the range's end is the prefix's byte increment, with the carry
    assertArrayEquals(new byte[] {2, 0}, SnapshotKeys.numbered(ID, 255).stop());
    assertArrayEquals(new byte[] {1, 2}, SnapshotKeys.numbered(ID, 1).stop());
  }

  @Test
  void rangesFollowTheNumbersAndNeverOverlapEachOtherOrALegacyOne() {
    Random random = new Random(1203);
    List<Long> numbers = new ArrayList<>(List.of(1L, 2L, 254L, 255L, 256L, 257L, 65_535L, 65_536L,
        SnapshotKeys.MAX_NUMBER - 1, SnapshotKeys.MAX_NUMBER));
    for (int i = 0; i < 2000; i++) {
      numbers.add(1 + (random.nextLong() >>> (8 + random.nextInt(56))));
    }
    numbers.sort(null);
    SnapshotKeys previous = null;
    SnapshotKeys legacy = SnapshotKeys.legacy(SnapshotId.of(1_420_070_400_000L * 1_000_000)); // 2015-01-01
    for (long n : numbers) {
      SnapshotKeys k = SnapshotKeys.numbered(ID, n);
      if (previous != null && previous.number() != n) {
        assertTrue(Bytes.compareTo(previous.stop(), k.start()) <= 0, previous + " ends after " + k + " starts");
      }
      assertTrue(k.start()[0] >= 1 && k.start()[0] <= 7 && Bytes.compareTo(k.start(), SnapshotKeys.numberedEnd()) < 0,
          k + " inside the numbered zone");
      assertTrue(Bytes.compareTo(k.stop(), legacy.start()) <= 0, k + " below every write pointer since 2015");
      assertEquals(k, SnapshotKeys.of(ID, k.prefix()));
      previous = k;
    }
  }

  @Test
  void aPrefixThatIsNeitherKindIsRefusedNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SnapshotKeys.of(ID, new byte[] {2, 0, 5}));
    assertEquals("invalid key prefix \\x02\\x00\\x05 for snapshot " + ID, e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SnapshotKeys.of(ID, new byte[] {3, 1}));
    assertThrows(IllegalArgumentException.class, () -> SnapshotKeys.of(ID, SnapshotId.of(7).toBytes()));
    assertThrows(IllegalArgumentException.class, () -> SnapshotKeys.numbered(ID, 0));
    assertThrows(IllegalArgumentException.class, () -> SnapshotKeys.numbered(ID, SnapshotKeys.MAX_NUMBER + 1));
  }

  @Test
  void aRecordRefusesAKeyNumberOutsideTheRangeNamingIt() {
    java.time.Instant at = java.time.Instant.parse("2026-12-04T00:00:00Z");
    SnapshotInfo.Builder b = SnapshotInfo.builder(ID).state(SnapshotState.BUILDING).createdAt(at);
    for (long bad : new long[] {-1, Long.MIN_VALUE, SnapshotKeys.MAX_NUMBER + 1, Long.MAX_VALUE}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.keyNumber(bad).build());
      assertEquals("key number must be between 0 and " + SnapshotKeys.MAX_NUMBER + ", got " + bad, e.getMessage());
    }
    assertEquals(SnapshotKeys.legacy(ID), b.keyNumber(0).build().keys());
    assertEquals(SnapshotKeys.numbered(ID, SnapshotKeys.MAX_NUMBER), b.keyNumber(SnapshotKeys.MAX_NUMBER).build().keys());
    assertEquals("key number must be between 1 and " + SnapshotKeys.MAX_NUMBER + ", got 0",
        assertThrows(IllegalArgumentException.class, () -> SnapshotKeys.numbered(ID, 0)).getMessage());
  }

  @Test
  void theUsersKeyComesBackWithoutThePrefix() {
    SnapshotKeys k = SnapshotKeys.numbered(ID, 300);
    byte[] row = k.rowKey(Bytes.toBytes("key-1"));
    assertArrayEquals(new byte[] {2, 1, 44, 'k', 'e', 'y', '-', '1'}, row);
    assertEquals("key-1", Bytes.toString(k.userKey(row)));
  }
}
