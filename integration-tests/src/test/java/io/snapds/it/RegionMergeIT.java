package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #12 item 3: cleanup merges the regions of cleaned snapshots, so that the data table's
 * region count follows the live snapshots, not every snapshot ever written. Each new snapshot
 * inherits its parent's split point (two regions each here), so without merging the count grows
 * by one per replace cycle (with {@code data.merge=false} the assertion fails at cycle 5: 7
 * regions for the 3 that hold the two live snapshots).
 */
@ExtendWith(MiniClusterExtension.class)
class RegionMergeIT {
  private static final int ROWS = 1000;
  private static final int CYCLES = 20;
  private static final int RETAINED = 2;

  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void twentyReplaceCyclesKeepTheRegionCountProportionalToTheLiveSnapshots() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("merge"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(RETAINED)).build());
    // the first snapshot's range split in two before its rows; every later one inherits it
    SnapshotWriter first = ds.newSnapshot().begin();
    Fixtures.split(cluster, ds, first.snapshotKeys().rowKey(Fixtures.key(ROWS / 2)));
    SnapshotInfo current = Fixtures.writeAndCommit(first, "c0", ROWS);

    int cleanedTotal = 0;
    int maxRegions = 0;
    for (int cycle = 1; cycle <= CYCLES; cycle++) {
      current = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "c" + cycle, ROWS);
      CleanupResult cleanup = ds.cleanup();
      cleanedTotal += cleanup.cleaned().size();

      List<SnapshotKeys> live = ds.retainedSnapshots().stream().map(SnapshotInfo::keys).toList();
      assertEquals(Math.min(cycle + 1, RETAINED), live.size());
      int liveRegions = regionsHolding(ds, live);
      int regions = regionCount(ds);
      maxRegions = Math.max(maxRegions, regions);
      assertTrue(liveRegions >= 2, "cycle " + cycle + ": the live snapshot kept its inherited regions");
      // each gap between live snapshots keeps at most one empty region (plus one a refused merge
      // left for the next run)
      assertTrue(regions <= 2 * liveRegions, "cycle " + cycle + ": " + regions + " regions in the data table for "
          + liveRegions + " regions of " + live.size() + " live snapshots");
    }
    assertEquals(CYCLES + 1 - RETAINED, cleanedTotal, "every expired snapshot was cleaned");
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(current), "the live snapshot reads every row");
    assertEquals(ROWS, Fixtures.observe(ds.readSnapshot(ds.retainedSnapshots().get(0).id())).rows(),
        "and so does the older retained one");
    System.out.println("RegionMergeIT: at most " + maxRegions + " regions over " + CYCLES + " cycles");
  }

  private int regionCount(SnapshotDataset ds) throws Exception {
    try (RegionLocator locator = cluster.connection().getRegionLocator(ds.id().dataTable())) {
      return locator.getAllRegionLocations().size();
    }
  }

  /** The regions that hold rows of the given snapshots. */
  private int regionsHolding(SnapshotDataset ds, List<SnapshotKeys> snapshots) throws Exception {
    int n = 0;
    try (RegionLocator locator = cluster.connection().getRegionLocator(ds.id().dataTable())) {
      for (HRegionLocation at : locator.getAllRegionLocations()) {
        byte[] start = at.getRegion().getStartKey();
        byte[] end = at.getRegion().getEndKey();
        for (SnapshotKeys s : snapshots) {
          boolean overlaps = Bytes.compareTo(start, s.stop()) < 0
              && (end.length == 0 || Bytes.compareTo(end, s.start()) > 0);
          if (overlaps) {
            n++;
            break;
          }
        }
      }
    }
    return n;
  }
}
