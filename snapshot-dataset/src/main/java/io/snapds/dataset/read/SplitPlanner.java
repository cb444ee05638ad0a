package io.snapds.dataset.read;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.StorageErrors;
import io.snapds.dataset.store.DataTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Cuts key ranges of one snapshot into {@link ReadSplit}s along the data table's region
 * boundaries: one split per range and region it touches, placed on that region's server. Neither
 * resolves nor pins: the caller pinned the snapshot ({@link SnapshotSelector#pin}) first.
 */
public final class SplitPlanner {
  private SplitPlanner() {}

  /**
   * One split per region that {@code scan}'s key range within {@code snapshot} overlaps (the whole
   * snapshot when the scan has no range), cut to that range. Only the range of {@code scan} is used.
   */
  public static List<ReadSplit> plan(Connection connection, DatasetId dataset, SnapshotKeys snapshot, RowScan scan)
      throws IOException {
    return plan(connection, dataset, snapshot, List.of(scan));
  }

  /** {@link #plan(Connection, DatasetId, SnapshotKeys, RowScan)} for each scan, in order, with one region lookup. */
  public static List<ReadSplit> plan(Connection connection, DatasetId dataset, SnapshotKeys snapshot,
      List<RowScan> scans) throws IOException {
    List<ReadSplit> splits = new ArrayList<>();
    List<HRegionLocation> regions;
    try (RegionLocator locator = connection.getRegionLocator(dataset.dataTable())) {
      regions = locator.getAllRegionLocations();
    } catch (IOException | java.io.UncheckedIOException e) {
      // a table dropped since the snapshot was pinned: DatasetNotFoundException, not HBase's exception
      throw StorageErrors.translate(dataset, "plan the splits of snapshot " + snapshot.id(), e);
    }
    for (RowScan rowScan : scans) {
      Scan scan = DataTable.toHBaseScan(snapshot, rowScan);
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
        splits.add(new ReadSplit(dataset, snapshot, splitStart, splitStop,
            region.getServerName() == null ? null : region.getHostname()));
      }
    }
    return splits;
  }
}
