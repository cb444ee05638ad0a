package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.store.DataTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Cuts the key ranges of one snapshot into splits along the data table's region boundaries: one
 * split per range and region it touches, placed on that region's server.
 */
final class SplitPlanner {
  private SplitPlanner() {}

  static List<SnapshotSplit> plan(Connection connection, Path tablePath, DatasetId dataset, SnapshotId snapshot,
      List<KeyRange> ranges) throws IOException {
    List<SnapshotSplit> splits = new ArrayList<>();
    try (RegionLocator locator = connection.getRegionLocator(dataset.dataTable())) {
      List<HRegionLocation> regions = locator.getAllRegionLocations();
      for (KeyRange range : ranges) {
        Scan scan = DataTable.toHBaseScan(snapshot, RowScan.all().range(range.start(), range.stop()));
        byte[] start = scan.getStartRow();
        byte[] stop = scan.getStopRow();
        for (HRegionLocation region : regions) {
          byte[] regionStart = region.getRegion().getStartKey();
          byte[] regionEnd = region.getRegion().getEndKey();
          boolean endless = regionEnd.length == 0;
          if (!endless && Bytes.compareTo(regionEnd, start) <= 0 || Bytes.compareTo(regionStart, stop) >= 0) {
            continue; // region wholly before or after the range
          }
          byte[] splitStart = Bytes.compareTo(regionStart, start) > 0 ? regionStart : start;
          byte[] splitStop = endless || Bytes.compareTo(regionEnd, stop) >= 0 ? stop : regionEnd;
          splits.add(new SnapshotSplit(tablePath, dataset, snapshot, splitStart, splitStop,
              region.getServerName() == null ? null : region.getHostname()));
        }
      }
    }
    return splits;
  }
}
