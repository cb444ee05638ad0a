package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.EmptyRegionMerger.Gap;
import io.snapds.dataset.store.RowKeys;
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
  private static final SnapshotId S10 = SnapshotId.of(10);
  private static final SnapshotId S20 = SnapshotId.of(20);
  private static final SnapshotId S21 = SnapshotId.of(21);
  private static final SnapshotId S30 = SnapshotId.of(30);

  @Test
  void gapsLieBelowBetweenAndJustAboveTheLiveSnapshots() {
    List<Gap> gaps = EmptyRegionMerger.gaps(List.of(S20, S10, S21), List.of(S30));
    assertEquals(List.of(
        "[, " + key(S10) + ")",
        "[" + key(SnapshotId.of(11)) + ", " + key(S20) + ")", // 20 and 21 touch: no gap between them
        "[" + key(SnapshotId.of(22)) + ", " + key(SnapshotId.of(31)) + ")"), // up to the newest cleaned one
        gaps.stream().map(Gap::toString).toList());
    // nothing cleaned above the newest live snapshot: the key space above it is left to new builds
    assertEquals(2, EmptyRegionMerger.gaps(List.of(S10, S20), List.of(S10)).size());
    assertEquals(List.of("[, " + key(SnapshotId.of(31)) + ")"),
        EmptyRegionMerger.gaps(List.of(), List.of(S30)).stream().map(Gap::toString).toList());
    assertEquals(List.of(), EmptyRegionMerger.gaps(List.of(), List.of()));
  }

  @Test
  void onlyRegionsWhollyInsideAGapAreMergedAndNeverOneHoldingLiveRows() {
    Gap gap = new Gap(HConstants.EMPTY_START_ROW, RowKeys.start(S20));
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
    Gap gap = new Gap(HConstants.EMPTY_START_ROW, RowKeys.start(S20));
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

  private static String key(SnapshotId id) {
    return Bytes.toStringBinary(RowKeys.start(id));
  }

  private static byte[] row(SnapshotId id, String userKey) {
    return RowKeys.rowKey(id, Bytes.toBytes(userKey));
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
