package io.snapds.dataset;

import io.snapds.dataset.store.RowKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits a new snapshot's key range before its first row, at the user-key boundaries of its
 * parent's regions: snapshot ids grow, so without it every build writes into the table's last
 * region until HBase's own splits catch up, one region server taking the whole load. The parent
 * predicts the new snapshot's key distribution (issue #12 item 1).
 *
 * <p>Best effort: a split HBase refuses or that takes too long is logged and the rest skipped;
 * the build writes as it would without. Cost: one hbase:meta lookup per region of the parent's
 * range (not the whole table's regions) and at most {@code max} splits, each an HBase procedure
 * of about a second, made before the writer is returned, within half the writer's lease.
 */
final class Presplit {
  private static final Logger LOG = LoggerFactory.getLogger(Presplit.class);
  private static final long SPLIT_TIMEOUT_SECONDS = 60;

  private Presplit() {}

  /** The split points for {@code child} inherited from {@code parentStarts} (region start keys of the table). */
  static List<byte[]> inherited(byte[][] regionStarts, SnapshotId parent, SnapshotId child, int max) {
    byte[] parentStart = RowKeys.start(parent);
    byte[] parentStop = RowKeys.stop(parent);
    byte[] childPrefix = child.toBytes();
    List<byte[]> points = new ArrayList<>();
    for (byte[] start : regionStarts) {
      if (Bytes.compareTo(start, parentStart) > 0 && Bytes.compareTo(start, parentStop) < 0) {
        points.add(Bytes.add(childPrefix, Arrays.copyOfRange(start, parentStart.length, start.length)));
      }
    }
    if (points.size() <= max) {
      return points;
    }
    // evenly spaced among the parent's boundaries
    List<byte[]> kept = new ArrayList<>(max);
    for (int i = 0; i < max; i++) {
      kept.add(points.get((int) ((long) i * points.size() / max)));
    }
    return kept;
  }

  /**
   * The start keys of the regions that hold {@code parent}'s range, walked from its start through
   * hbase:meta (one lookup each): only the parent's regions, not the whole table's (whose empty
   * regions of cleaned snapshots accumulate until they are merged).
   */
  private static byte[][] regionStartsOf(RegionLocator locator, SnapshotId parent) throws IOException {
    byte[] stop = RowKeys.stop(parent);
    List<byte[]> starts = new ArrayList<>();
    byte[] row = RowKeys.start(parent);
    while (true) {
      HRegionLocation at = locator.getRegionLocation(row, true); // fresh: a cached one may predate splits
      starts.add(at.getRegion().getStartKey());
      byte[] end = at.getRegion().getEndKey();
      if (end.length == 0 || Bytes.compareTo(end, stop) >= 0) {
        return starts.toArray(byte[][]::new);
      }
      row = end;
    }
  }

  /**
   * Splits the data table at the points {@link #inherited} gives, for at most {@code budget};
   * returns how many splits were made. The caller holds the writer lock, which nothing renews
   * until the writer exists, so the budget must stay well inside the lease.
   */
  static int apply(Connection connection, TableName table, SnapshotId parent, SnapshotId child, int max,
      java.time.Duration budget) {
    if (max <= 0) {
      return 0;
    }
    long deadline = System.nanoTime() + budget.toNanos();
    try (RegionLocator locator = connection.getRegionLocator(table); Admin admin = connection.getAdmin()) {
      byte[][] starts = regionStartsOf(locator, parent);
      List<byte[]> points = inherited(starts, parent, child, max);
      LOG.debug("snapshot {} of {}: {} region starts, {} inherited split points", child, table, starts.length,
          points.size());
      int made = 0;
      for (byte[] point : points) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          LOG.warn("snapshot {} of {}: pre-split stopped after {} of {} splits, at its time budget {}", child, table,
              made, points.size(), budget);
          break;
        }
        HRegionLocation at = locator.getRegionLocation(point, true);
        if (Bytes.equals(at.getRegion().getStartKey(), point)) {
          continue; // already a boundary (a retried begin)
        }
        admin.splitRegionAsync(at.getRegion().getRegionName(), point)
            .get(Math.min(left, TimeUnit.SECONDS.toNanos(SPLIT_TIMEOUT_SECONDS)), TimeUnit.NANOSECONDS);
        made++;
      }
      if (made > 0) {
        LOG.info("snapshot {} of {}: key range pre-split into {} more regions, from parent {}", child, table, made,
            parent);
      }
      return made;
    } catch (IOException | ExecutionException | TimeoutException | RuntimeException e) {
      LOG.warn("pre-splitting snapshot {} of {} from parent {} stopped: {}; the build writes without it", child,
          table, parent, e.toString());
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }
}
