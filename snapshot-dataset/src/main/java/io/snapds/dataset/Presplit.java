package io.snapds.dataset;

import io.snapds.dataset.store.DataTable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
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
 * predicts the new snapshot's key distribution (issue #12 item 1). A dataset's first snapshot has
 * no parent: it is split at the user keys of {@link DatasetProperties#firstSplitPoints()}, if any.
 * The new regions are then spread over the live region servers in turn.
 *
 * <p>Best effort: a split or move HBase refuses or that takes too long is logged and the rest
 * skipped; the build writes as it would without. Cost: one hbase:meta lookup per region of the
 * parent's range (not the whole table's regions), at most {@code max} splits and as many moves,
 * each an HBase procedure of about a second, made before the writer is returned, within half the
 * writer's lease.
 */
final class Presplit {
  private static final Logger LOG = LoggerFactory.getLogger(Presplit.class);
  private static final long SPLIT_TIMEOUT_SECONDS = 60;

  private Presplit() {}

  /** The split points for {@code child} inherited from {@code parentStarts} (region start keys of the table). */
  static List<byte[]> inherited(byte[][] regionStarts, SnapshotKeys parent, SnapshotKeys child, int max) {
    byte[] parentStart = parent.start();
    byte[] parentStop = parent.stop();
    byte[] childPrefix = child.prefix();
    List<byte[]> points = new ArrayList<>();
    for (byte[] start : regionStarts) {
      if (Bytes.compareTo(start, parentStart) > 0 && Bytes.compareTo(start, parentStop) < 0) {
        points.add(Bytes.add(childPrefix, Arrays.copyOfRange(start, parentStart.length, start.length)));
      }
    }
    return thin(points, max);
  }

  /** At most {@code max} of {@code points}, evenly spaced among them. */
  private static List<byte[]> thin(List<byte[]> points, int max) {
    if (points.size() <= max) {
      return points;
    }
    List<byte[]> kept = new ArrayList<>(max);
    for (int i = 0; i < max; i++) {
      kept.add(points.get((int) ((long) i * points.size() / max)));
    }
    return kept;
  }

  /**
   * The start keys of the regions that hold {@code parent}'s range; see {@link #regionsOf}.
   */
  private static byte[][] regionStartsOf(RegionLocator locator, SnapshotKeys parent) throws IOException {
    return regionsOf(locator, parent).stream().map(r -> r.getRegion().getStartKey()).toArray(byte[][]::new);
  }

  /**
   * The regions that hold {@code snapshot}'s range, fresh from hbase:meta (a cached location may
   * predate the splits): only that snapshot's regions, not the whole table's.
   */
  private static List<HRegionLocation> regionsOf(RegionLocator locator, SnapshotKeys snapshot) throws IOException {
    return DataTable.regionsIn(locator, snapshot.start(), snapshot.stop(), true, Integer.MAX_VALUE);
  }

  /**
   * The split points of a first snapshot (one without a parent): the user's keys under the
   * snapshot's prefix, evenly thinned to {@code max} like inherited ones.
   */
  static List<byte[]> first(List<byte[]> userKeys, SnapshotKeys child, int max) {
    List<byte[]> points = new ArrayList<>(userKeys.size());
    for (byte[] key : userKeys) {
      points.add(child.rowKey(key));
    }
    return thin(points, max);
  }

  /**
   * Splits the data table inside {@code child}'s range where its parent's regions begin, or at
   * the dataset's first split points when it has no parent; see {@link #split}.
   */
  static int apply(Connection connection, TableName table, Optional<SnapshotKeys> parent, SnapshotKeys child,
      DatasetProperties properties, Duration budget) {
    int max = properties.presplitMaxRegions();
    if (max <= 0 || (parent.isEmpty() && properties.firstSplitPoints().isEmpty())) {
      return 0;
    }
    try (RegionLocator locator = connection.getRegionLocator(table)) {
      List<byte[]> points = parent.isPresent()
          ? inherited(regionStartsOf(locator, parent.get()), parent.get(), child, max)
          : first(properties.firstSplitPoints(), child, max);
      return split(connection, locator, child, points, budget);
    } catch (IOException | RuntimeException e) {
      LOG.warn("pre-splitting snapshot {} of {} stopped: {}; the build writes without it", child, table,
          e.toString());
      return 0;
    }
  }

  /**
   * Splits the data table at {@code points}, then spreads the new snapshot's regions over the
   * live region servers in turn (a daughter region opens where its parent was, so without the
   * moves every region of the build would still sit on one server until the balancer runs). For
   * at most {@code budget}, which bounds how long {@code begin()} spends here (the writer lock's
   * lease is renewed meanwhile by the keeper begin started at the grant). Returns how many splits
   * were made.
   */
  private static int split(Connection connection, RegionLocator locator, SnapshotKeys child, List<byte[]> points,
      Duration budget) throws IOException {
    TableName table = locator.getName();
    long deadline = System.nanoTime() + budget.toNanos();
    int made = 0;
    try (Admin admin = connection.getAdmin()) {
      for (byte[] point : points) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          LOG.warn("snapshot {} of {}: pre-split stopped after {} of {} splits, at its time budget {}", child, table,
              made, points.size(), budget);
          return made;
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
        int moved = spread(admin, locator, child, deadline);
        LOG.info("snapshot {} of {}: key range pre-split into {} more regions, {} moved to spread them", child,
            table, made, moved);
      }
      return made;
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn("pre-splitting snapshot {} of {} stopped after {} splits: {}; the build writes without the rest",
          child, table, made, e.toString());
      return made;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return made;
    }
  }

  /**
   * Moves the regions of {@code child}'s range so that region i is on live server i mod n (servers
   * in name order, starting from where the first region is). Returns how many moved.
   */
  private static int spread(Admin admin, RegionLocator locator, SnapshotKeys child, long deadline)
      throws IOException {
    List<ServerName> servers = new ArrayList<>(admin.getRegionServers());
    if (servers.size() < 2) {
      return 0;
    }
    Collections.sort(servers);
    List<HRegionLocation> regions = regionsOf(locator, child);
    int offset = Math.max(0, servers.indexOf(regions.get(0).getServerName()));
    int moved = 0;
    try {
      for (int i = 0; i < regions.size() && System.nanoTime() < deadline; i++) {
        ServerName target = servers.get((offset + i) % servers.size());
        if (!target.equals(regions.get(i).getServerName())) {
          admin.move(regions.get(i).getRegion().getEncodedNameAsBytes(), target);
          moved++;
        }
      }
    } catch (IOException e) {
      LOG.warn("snapshot {}: spreading its regions stopped after {} moves: {}", child, moved, e.toString());
    }
    return moved;
  }
}
