package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Which split points a new snapshot inherits from its parent's regions. */
class PresplitTest {
  private static final SnapshotKeys OLDER = SnapshotKeys.numbered(SnapshotId.of(1_796_000_000_000_000_000L), 1);
  private static final SnapshotKeys PARENT = SnapshotKeys.numbered(SnapshotId.of(1_796_000_001_000_000_000L), 2);
  private static final SnapshotKeys CHILD = SnapshotKeys.numbered(SnapshotId.of(1_796_000_002_000_000_000L), 3);

  private static List<String> userKeys(List<byte[]> points) {
    List<String> out = new ArrayList<>();
    for (byte[] p : points) {
      assertTrue(Bytes.compareTo(p, CHILD.start()) > 0 && Bytes.compareTo(p, CHILD.stop()) < 0,
          "a point inside the child's range");
      out.add(Bytes.toString(CHILD.userKey(p)));
    }
    return out;
  }

  @Test
  void theParentsInnerBoundariesMoveToTheChildsRange() {
    byte[][] starts = {HConstants.EMPTY_START_ROW, OLDER.rowKey(Bytes.toBytes("m")), PARENT.start(),
        PARENT.rowKey(Bytes.toBytes("g")), PARENT.rowKey(Bytes.toBytes("p")),
        CHILD.rowKey(Bytes.toBytes("a"))};
    // the older snapshot's boundary and the parent's own start are not the parent's inner boundaries
    assertEquals(List.of("g", "p"), userKeys(Presplit.inherited(starts, PARENT, CHILD, 64)));
  }

  @Test
  void theFirstNumberedChildOfAnUpgradedDatasetInheritsItsLegacyParentsBoundaries() {
    SnapshotKeys legacyParent = SnapshotKeys.legacy(SnapshotId.of(1_796_000_001_500_000_000L));
    byte[][] starts = {HConstants.EMPTY_START_ROW, legacyParent.start(), legacyParent.rowKey(Bytes.toBytes("g")),
        legacyParent.rowKey(Bytes.toBytes("p")), legacyParent.stop()};
    assertEquals(List.of("g", "p"), userKeys(Presplit.inherited(starts, legacyParent, CHILD, 64)));
  }

  @Test
  void aParentOfOneRegionGivesNoPoints() {
    byte[][] starts = {HConstants.EMPTY_START_ROW};
    assertEquals(List.of(), Presplit.inherited(starts, PARENT, CHILD, 64));
  }

  @Test
  void theCapKeepsEvenlySpacedBoundaries() {
    byte[][] starts = new byte[101][];
    starts[0] = HConstants.EMPTY_START_ROW;
    for (int i = 1; i <= 100; i++) {
      starts[i] = PARENT.rowKey(Bytes.toBytes(String.format("k%03d", i)));
    }
    List<String> kept = userKeys(Presplit.inherited(starts, PARENT, CHILD, 4));
    assertEquals(List.of("k001", "k026", "k051", "k076"), kept);
    assertEquals(List.of(), Presplit.inherited(starts, PARENT, CHILD, 0));
  }

  @Test
  void aFirstSnapshotTakesTheUsersPointsUnderItsPrefixThinnedToTheCap() {
    List<byte[]> keys = List.of(Bytes.toBytes("g"), Bytes.toBytes("n"), Bytes.toBytes("t"));
    assertEquals(List.of("g", "n", "t"), userKeys(Presplit.first(keys, CHILD, 64)));
    assertEquals(List.of("g"), userKeys(Presplit.first(keys, CHILD, 1)));
  }

  @Test
  void firstSplitPointsMustBeSortedDistinctAndNonEmpty() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> DatasetProperties.builder().firstSplitPoints(List.of(Bytes.toBytes("n"), Bytes.toBytes("g"))).build());
    assertEquals("data.presplit.first.points must be sorted and distinct: 'g' comes after 'n'", e.getMessage());
    e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> DatasetProperties.builder().firstSplitPoints(List.of(Bytes.toBytes("g"), new byte[0])).build());
    assertEquals("data.presplit.first.points: point 1 is empty", e.getMessage());
  }
}
