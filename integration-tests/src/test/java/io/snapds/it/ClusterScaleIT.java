package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #12 on the integration tests' three region servers: a build spreads over regions and
 * region servers from its first row.
 */
@ExtendWith(MiniClusterExtension.class)
class ClusterScaleIT {
  private static final int ROWS = 200_000;

  /**
   * The first snapshot is split at the dataset's first split points; the next one inherits its
   * parent's four regions before its first row, spread over the region servers, and its 200,000
   * rows land in all four. Before: the first snapshot was one region, and an inherited split left
   * every daughter on its parent's server.
   */
  @Test
  void aBuildWhoseParentHadFourRegionsLandsInThemOnSeveralRegionServers() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    List<byte[]> points = List.of(Fixtures.key(ROWS / 4), Fixtures.key(ROWS / 2), Fixtures.key(3 * ROWS / 4));
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("scale"),
        DatasetProperties.builder().firstSplitPoints(points).build());

    SnapshotWriter first = ds.newSnapshot().begin();
    List<HRegionLocation> before = regionsOf(cluster, ds, first.snapshotKeys());
    assertEquals(List.of("", "k050000", "k100000", "k150000"), userStarts(first.snapshotKeys(), before),
        "the first snapshot's range is split at the dataset's points before its first row");
    assertTrue(servers(before).size() >= 2, "spread before the first row: " + before);
    Fixtures.writeAndCommit(first, "s1", 2_000);

    SnapshotWriter w = ds.newSnapshot().begin();
    SnapshotKeys keys = w.snapshotKeys();
    List<HRegionLocation> inherited = regionsOf(cluster, ds, keys);
    assertEquals(List.of("", "k050000", "k100000", "k150000"), userStarts(keys, inherited),
        "the build inherits its parent's boundaries before its first row");
    assertTrue(servers(inherited).size() >= 2, "the inherited regions are spread: " + inherited);

    SnapshotInfo published = Fixtures.writeAndCommit(w, "s2", ROWS);
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(published), "every row written and read back");
    assertEquals(ROWS, published.rowCount());

    List<HRegionLocation> after = regionsOf(cluster, ds, keys);
    Set<ServerName> holding = new HashSet<>();
    for (HRegionLocation region : after) {
      long rows = rowsIn(cluster, ds, region, keys);
      if (rows > 0) {
        holding.add(region.getServerName());
      }
      assertTrue(rows > 0, "a region of the build without rows: " + region);
    }
    assertTrue(after.size() >= 4, "the build's rows are in at least 4 regions: " + after);
    assertTrue(holding.size() >= 2, "the build's rows are on at least 2 region servers: " + after);
  }

  private static List<HRegionLocation> regionsOf(MiniCluster cluster, SnapshotDataset ds, SnapshotKeys keys)
      throws Exception {
    try (RegionLocator locator = cluster.connection().getRegionLocator(ds.id().dataTable())) {
      locator.clearRegionLocationCache();
      return inRange(locator.getAllRegionLocations(), keys);
    }
  }

  private static List<HRegionLocation> inRange(List<HRegionLocation> all, SnapshotKeys keys) {
    List<HRegionLocation> out = new ArrayList<>();
    for (HRegionLocation r : all) {
      byte[] start = r.getRegion().getStartKey();
      byte[] end = r.getRegion().getEndKey();
      boolean endsAfterStart = end.length == 0 || Bytes.compareTo(end, keys.start()) > 0;
      boolean startsBeforeStop = Bytes.compareTo(start, keys.stop()) < 0;
      if (endsAfterStart && startsBeforeStop) {
        out.add(r);
      }
    }
    return out;
  }

  /** Each region's start as a user key of {@code keys}; "" for the region the range begins in. */
  private static List<String> userStarts(SnapshotKeys keys, List<HRegionLocation> regions) {
    List<String> out = new ArrayList<>();
    for (HRegionLocation r : regions) {
      byte[] start = r.getRegion().getStartKey();
      out.add(Bytes.compareTo(start, keys.start()) <= 0 ? "" : Bytes.toString(keys.userKey(start)));
    }
    return out;
  }

  private static Set<ServerName> servers(List<HRegionLocation> regions) {
    Set<ServerName> out = new HashSet<>();
    regions.forEach(r -> out.add(r.getServerName()));
    return out;
  }

  /** The rows of {@code keys}' snapshot inside {@code region}, read straight from HBase. */
  private static long rowsIn(MiniCluster cluster, SnapshotDataset ds, HRegionLocation region, SnapshotKeys keys)
      throws Exception {
    byte[] start = Bytes.compareTo(region.getRegion().getStartKey(), keys.start()) > 0
        ? region.getRegion().getStartKey() : keys.start();
    byte[] end = region.getRegion().getEndKey();
    byte[] stop = end.length > 0 && Bytes.compareTo(end, keys.stop()) < 0 ? end : keys.stop();
    long rows = 0;
    try (Table t = cluster.connection().getTable(ds.id().dataTable());
        ResultScanner rs = t.getScanner(new Scan().withStartRow(start).withStopRow(stop)
            .setFilter(new FirstKeyOnlyFilter()).setCaching(5_000))) {
      for (Result ignored : rs) {
        rows++;
      }
    }
    return rows;
  }
}
