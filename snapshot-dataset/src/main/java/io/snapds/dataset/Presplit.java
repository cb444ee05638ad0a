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
 * the build writes as it would without. Cost: one region-locator read of the table's boundaries
 * (cached by the connection) and at most {@code max} splits, each an HBase procedure of about a
 * second, made before the writer is returned. Independent of the publishes ever made.
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

  /** Splits the data table at the points {@link #inherited} gives; returns how many splits were made. */
  static int apply(Connection connection, TableName table, SnapshotId parent, SnapshotId child, int max) {
    if (max <= 0) {
      return 0;
    }
    try (RegionLocator locator = connection.getRegionLocator(table); Admin admin = connection.getAdmin()) {
      byte[][] starts = locator.getStartKeys();
      List<byte[]> points = inherited(starts, parent, child, max);
      LOG.debug("snapshot {} of {}: {} region starts, {} inherited split points", child, table, starts.length,
          points.size());
      int made = 0;
      for (byte[] point : points) {
        HRegionLocation at = locator.getRegionLocation(point, true);
        if (Bytes.equals(at.getRegion().getStartKey(), point)) {
          continue; // already a boundary (a retried begin)
        }
        admin.splitRegionAsync(at.getRegion().getRegionName(), point).get(SPLIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
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
