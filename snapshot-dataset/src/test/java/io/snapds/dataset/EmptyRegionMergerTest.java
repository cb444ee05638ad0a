package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.EmptyRegionMerger.Gap;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Which key ranges hold no live snapshot, and which regions in them are merged together. */
class EmptyRegionMergerTest {
  private static final TableName TABLE = TableName.valueOf("t", "d.data");
  private static final SnapshotKeys S10 = legacy(10);
  private static final SnapshotKeys S20 = legacy(20);
  private static final SnapshotKeys S21 = legacy(21);
  private static final SnapshotKeys S30 = legacy(30);

  @Test
  void gapsLieBelowBetweenAndJustAboveTheLiveSnapshots() {
    List<Gap> gaps = EmptyRegionMerger.gaps(List.of(S20, S10, S21), List.of(S30), 0);
    assertEquals(List.of(
        "[, " + key(S10) + ")",
        "[" + key(legacy(11)) + ", " + key(S20) + ")", // 20 and 21 touch: no gap between them
        "[" + key(legacy(22)) + ", " + key(legacy(31)) + ")"), // up to the newest cleaned one
        strings(gaps));
    // nothing cleaned above the newest live snapshot: the key space above it is left to new builds
    assertEquals(2, EmptyRegionMerger.gaps(List.of(S10, S20), List.of(S10), 0).size());
    assertEquals(List.of("[, " + key(legacy(31)) + ")"), strings(EmptyRegionMerger.gaps(List.of(), List.of(S30), 0)));
    assertEquals(List.of(), EmptyRegionMerger.gaps(List.of(), List.of(), 0));
  }

  @Test
  void numberedSnapshotsHaveGapsInNumberOrderAndNoneWhereTheNextBuildsBegin() {
    // ids in another order than the numbers: two begins raced, and key order is number order
    SnapshotKeys n1 = numbered(90, 1);
    SnapshotKeys n2 = numbered(50, 2);
    SnapshotKeys n3 = numbered(70, 3);
    SnapshotKeys n4 = numbered(60, 4);
    assertEquals(List.of("[, " + key(n1) + ")", "[" + key(n1.stop()) + ", " + key(n3) + ")"),
        strings(EmptyRegionMerger.gaps(List.of(n3, n1), List.of(n2), 3)));
    // n4 cleaned above the live n3: the gap runs up to n4's end, not into n5's, where builds begin next
    assertEquals(List.of("[, " + key(n3) + ")", "[" + key(n3.stop()) + ", " + key(n4.stop()) + ")"),
        strings(EmptyRegionMerger.gaps(List.of(n3), List.of(n1, n2, n4), 4)));
    // nothing cleaned above n3: the numbers after it (n4 may be given as this runs) are in no gap
    assertEquals(List.of("[, " + key(n3) + ")"), strings(EmptyRegionMerger.gaps(List.of(n3), List.of(n1), 3)));
  }

  @Test
  void anUpgradedDatasetsGapsStayOutOfTheNumberedRangeStillToCome() {
    // format 2 gave 8-byte ids; after the upgrade, numbers: their ranges sort below every id's
    SnapshotKeys oldLive = legacy(1_796_000_001_000_000_000L);
    SnapshotKeys oldCleaned = legacy(1_796_000_002_000_000_000L);
    SnapshotKeys n1 = numbered(1_796_000_003_000_000_000L, 1);
    SnapshotKeys n2 = numbered(1_796_000_004_000_000_000L, 2);
    assertTrue(Bytes.compareTo(n2.stop(), oldLive.start()) < 0, "numbered ranges sort below legacy ones");
    List<String> gaps = strings(EmptyRegionMerger.gaps(List.of(oldLive, n2), List.of(oldCleaned, n1), 2));
    assertEquals(List.of("[, " + key(n2) + ")", "[" + key(SnapshotKeys.numberedEnd()) + ", " + key(oldLive) + ")",
        "[" + key(oldLive.stop()) + ", " + key(oldCleaned.stop()) + ")"), gaps);
    // still at format 2, no number given yet: another process may upgrade and begin number 1 at
    // any time, so the numbered range stays out of the gaps all the same
    SnapshotKeys newer = legacy(1_796_000_005_000_000_000L);
    assertEquals(List.of("[, " + key(SnapshotKeys.numberedStart(0)) + ")",
        "[" + key(SnapshotKeys.numberedEnd()) + ", " + key(newer) + ")"),
        strings(EmptyRegionMerger.gaps(List.of(newer), List.of(oldLive), 0)));
  }

  @Test
  void theSweepCoversTheNumberedZoneBelowTheCounterLessTheLiveAndTheJustCleanedRanges() {
    SnapshotKeys n2 = numbered(50, 2);
    SnapshotKeys n3 = numbered(70, 3);
    SnapshotKeys n5 = numbered(60, 5);
    SnapshotKeys n300 = numbered(80, 300); // a longer prefix sorts after every shorter one
    SnapshotKeys oldLive = legacy(1_796_000_001_000_000_000L);
    // live 3 and 300, 5 just cleaned, 300 the last number given: 1-2, 4 and 6-299 are swept, 301 and up not
    assertEquals(List.of("[" + key(SnapshotKeys.numberedStart(0)) + ", " + key(n3) + ")",
        "[" + key(n3.stop()) + ", " + key(n5) + ")", "[" + key(n5.stop()) + ", " + key(n300) + ")"),
        strings(EmptyRegionMerger.numberedGaps(List.of(n300, n3, oldLive), List.of(n5), 300)));
    // a BUILDING 300 above the counter read (another begin raced this read) is not touched either
    assertEquals(List.of("[" + key(SnapshotKeys.numberedStart(0)) + ", " + key(n3) + ")",
        "[" + key(n3.stop()) + ", " + key(SnapshotKeys.numberedStart(4)) + ")"),
        strings(EmptyRegionMerger.numberedGaps(List.of(n3, n300), List.of(), 4)));
    // after a truncate the counter is carried over: the old incarnation's numbers are all one gap
    assertEquals(List.of("[" + key(SnapshotKeys.numberedStart(0)) + ", " + key(n3) + ")"),
        strings(EmptyRegionMerger.numberedGaps(List.of(n3), List.of(), 3)));
    assertEquals(List.of("[" + key(SnapshotKeys.numberedStart(0)) + ", " + key(n2.stop()) + ")"),
        strings(EmptyRegionMerger.numberedGaps(List.of(), List.of(), 2)));
    // nothing numbered yet (format 2): nothing to sweep
    assertEquals(List.of(), EmptyRegionMerger.numberedGaps(List.of(oldLive), List.of(), 0));
  }

  private static SnapshotKeys legacy(long id) {
    return SnapshotKeys.legacy(SnapshotId.of(id));
  }

  private static SnapshotKeys numbered(long id, long number) {
    return SnapshotKeys.numbered(SnapshotId.of(id), number);
  }

  private static List<String> strings(List<Gap> gaps) {
    return gaps.stream().map(Gap::toString).toList();
  }

  @Test
  void onlyRegionsWhollyInsideAGapAreMergedAndNeverOneHoldingLiveRows() {
    Gap gap = new Gap(HConstants.EMPTY_START_ROW, S20.start());
    // [,10a) [10a,10m) [10m,20c) [20c,) : the third holds the head of 20, the fourth its tail
    List<RegionInfo> regions = regions(HConstants.EMPTY_START_ROW, row(S10, "a"), row(S10, "m"), row(S20, "c"),
        HConstants.EMPTY_END_ROW);
    List<List<RegionInfo>> merges = EmptyRegionMerger.merges(gap, regions);
    assertEquals(1, merges.size());
    assertEquals(List.of(regions.get(0), regions.get(1)), merges.get(0));

    // one empty region alone: nothing to merge it with inside the gap
    assertEquals(List.of(), EmptyRegionMerger.merges(gap, regions.subList(1, 4)));
  }

  @Test
  void aLongRunIsMergedInPiecesOfAtMostTheCap() {
    Gap gap = new Gap(HConstants.EMPTY_START_ROW, S20.start());
    List<byte[]> bounds = new ArrayList<>();
    bounds.add(HConstants.EMPTY_START_ROW);
    int n = EmptyRegionMerger.MAX_REGIONS_PER_MERGE + 3;
    for (int i = 1; i <= n; i++) {
      bounds.add(row(S10, String.format("%04d", i)));
    }
    List<RegionInfo> regions = regions(bounds.toArray(byte[][]::new));
    List<List<RegionInfo>> merges = EmptyRegionMerger.merges(gap, regions);
    assertEquals(List.of(EmptyRegionMerger.MAX_REGIONS_PER_MERGE, 3), merges.stream().map(List::size).toList());
  }

  private static String key(SnapshotKeys k) {
    return Bytes.toStringBinary(k.start());
  }

  private static String key(byte[] row) {
    return Bytes.toStringBinary(row);
  }

  private static byte[] row(SnapshotKeys k, String userKey) {
    return k.rowKey(Bytes.toBytes(userKey));
  }

  /** Adjacent regions between consecutive boundaries. */
  private static List<RegionInfo> regions(byte[]... bounds) {
    List<RegionInfo> out = new ArrayList<>();
    for (int i = 0; i + 1 < bounds.length; i++) {
      out.add(RegionInfoBuilder.newBuilder(TABLE).setStartKey(bounds[i]).setEndKey(bounds[i + 1]).build());
    }
    return out;
  }
}
