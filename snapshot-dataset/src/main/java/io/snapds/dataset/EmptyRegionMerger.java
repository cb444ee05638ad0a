package io.snapds.dataset;

import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges the data table's regions that hold no live snapshot, after cleanup, so that the region
 * count follows the live data and not the data ever written (issue #12 item 3). A cleaned
 * snapshot leaves its regions empty (pre-splitting gave it as many as its parent had), and
 * nothing is ever written into its key range again: without this, a daily build of 10 regions
 * leaves 3,650 empty regions a year.
 *
 * <p>The key space between live snapshots (retained, building, or awaiting cleanup: every record
 * whose rows may still be there) is a <em>gap</em>; a region lying wholly inside a gap holds no
 * live row. Each run of two or more such adjacent regions becomes one region, by one HBase merge
 * procedure. A region that holds live rows (one that straddles a gap's end) is never part of a
 * merge, so live data is never rewritten by the compaction a merged region gets; the merged empty
 * region is absorbed by the next merge of its gap, when the next snapshot below is cleaned.
 *
 * <p>Best effort and bounded: a merge HBase refuses (a region that still holds references to its
 * parents' files, not yet compacted; a region in transition; merges switched off) or that does
 * not end within the time budget is logged and left to the next cleanup, which looks at every gap
 * again. Cost per run: the live records (indexes the cleanup reads anyway) and one hbase:meta
 * lookup per region in a gap, which the merges keep at a handful per gap.
 */
final class EmptyRegionMerger {
  private static final Logger LOG = LoggerFactory.getLogger(EmptyRegionMerger.class);
  /** Regions per merge procedure; a longer run is merged in pieces. */
  static final int MAX_REGIONS_PER_MERGE = 50;
  /** Regions looked up per gap per run: a gap left with more (merging was off) is worked down over runs. */
  static final int MAX_REGIONS_PER_GAP = 1000;
  /** How long one run may spend merging; what is left waits for the next cleanup. */
  static final Duration BUDGET = Duration.ofMinutes(1);

  private final DatasetId dataset;
  private final MetadataStore store;
  private final Connection connection;
  private final boolean enabled;
  private final Duration budget;

  EmptyRegionMerger(DatasetId dataset, MetadataStore store, Connection connection, boolean enabled, Duration budget) {
    this.dataset = dataset;
    this.store = store;
    this.connection = connection;
    this.enabled = enabled;
    this.budget = budget;
  }

  /** A key range {@code [start, stop)} holding no live snapshot's rows; an empty start is the table's start. */
  record Gap(byte[] start, byte[] stop) {
    boolean holdsWhole(RegionInfo region) {
      byte[] end = region.getEndKey();
      return Bytes.compareTo(region.getStartKey(), start) >= 0 && end.length > 0 && Bytes.compareTo(end, stop) <= 0;
    }

    @Override
    public String toString() {
      return "[" + Bytes.toStringBinary(start) + ", " + Bytes.toStringBinary(stop) + ")";
    }
  }

  /**
   * The gaps between the {@code live} snapshots, in key order: below the first, between
   * neighbours, and above the last up to the end of the last {@code cleaned} one (above that, new
   * builds of 8-byte ids begin). No gap reaches into
   * {@code [numberedStart(lastKeyNumber), numberedEnd())}, where the builds numbered after this
   * read begin: not even in a dataset still at format 2, which another process may upgrade and
   * begin numbering in at any time (it costs such a dataset at most its first region unmerged).
   */
  static List<Gap> gaps(Collection<SnapshotKeys> live, Collection<SnapshotKeys> cleaned, long lastKeyNumber) {
    List<SnapshotKeys> sorted = new ArrayList<>(live);
    sorted.sort((a, b) -> Bytes.compareTo(a.start(), b.start()));
    List<Gap> gaps = new ArrayList<>();
    byte[] from = HConstants.EMPTY_START_ROW;
    for (SnapshotKeys k : sorted) {
      byte[] start = k.start();
      if (Bytes.compareTo(from, start) < 0) {
        gaps.add(new Gap(from, start));
      }
      if (Bytes.compareTo(from, k.stop()) < 0) {
        from = k.stop();
      }
    }
    byte[] lastCleaned = null;
    for (SnapshotKeys k : cleaned) {
      if (lastCleaned == null || Bytes.compareTo(k.stop(), lastCleaned) > 0) {
        lastCleaned = k.stop();
      }
    }
    if (lastCleaned != null && Bytes.compareTo(from, lastCleaned) < 0) {
      gaps.add(new Gap(from, lastCleaned));
    }
    return without(gaps, SnapshotKeys.numberedStart(lastKeyNumber), SnapshotKeys.numberedEnd());
  }

  /**
   * The key ranges of the numbered zone that no {@code live} snapshot owns, below
   * {@code numberedStart(lastKeyNumber)} (where the builds numbered after this read begin), less
   * the ranges in {@code skip}: what cleanup sweeps. Rows there belong to no snapshot that exists:
   * a fenced or aborted writer's, written after its range was cleaned, or an earlier incarnation's.
   */
  static List<Gap> numberedGaps(Collection<SnapshotKeys> live, Collection<SnapshotKeys> skip, long lastKeyNumber) {
    byte[] end = SnapshotKeys.numberedStart(lastKeyNumber);
    List<SnapshotKeys> taken = new ArrayList<>(live);
    taken.addAll(skip);
    taken.sort((a, b) -> Bytes.compareTo(a.start(), b.start()));
    List<Gap> gaps = new ArrayList<>();
    byte[] from = SnapshotKeys.numberedStart(0);
    for (SnapshotKeys k : taken) {
      if (Bytes.compareTo(from, end) >= 0) {
        break;
      }
      byte[] start = Bytes.compareTo(k.start(), end) < 0 ? k.start() : end;
      if (Bytes.compareTo(from, start) < 0) {
        gaps.add(new Gap(from, start));
      }
      if (Bytes.compareTo(from, k.stop()) < 0) {
        from = k.stop();
      }
    }
    if (Bytes.compareTo(from, end) < 0) {
      gaps.add(new Gap(from, end));
    }
    return gaps;
  }

  /** {@code gaps} less the range {@code [start, stop)}. */
  private static List<Gap> without(List<Gap> gaps, byte[] start, byte[] stop) {
    List<Gap> out = new ArrayList<>();
    for (Gap g : gaps) {
      if (Bytes.compareTo(g.stop(), start) <= 0 || Bytes.compareTo(g.start(), stop) >= 0) {
        out.add(g);
        continue;
      }
      if (Bytes.compareTo(g.start(), start) < 0) {
        out.add(new Gap(g.start(), start));
      }
      if (Bytes.compareTo(stop, g.stop()) < 0) {
        out.add(new Gap(stop, g.stop()));
      }
    }
    return out;
  }

  /**
   * The merges for one gap: its wholly-held regions (given in key order, as looked up), in runs of
   * adjacent ones, each of at least two and at most {@link #MAX_REGIONS_PER_MERGE} regions.
   */
  static List<List<RegionInfo>> merges(Gap gap, List<RegionInfo> regions) {
    List<List<RegionInfo>> merges = new ArrayList<>();
    List<RegionInfo> run = new ArrayList<>();
    for (RegionInfo r : regions) {
      boolean adjacent = run.isEmpty() || Bytes.equals(run.get(run.size() - 1).getEndKey(), r.getStartKey());
      if (!gap.holdsWhole(r) || !adjacent || run.size() == MAX_REGIONS_PER_MERGE) {
        if (run.size() >= 2) {
          merges.add(run);
        }
        run = new ArrayList<>();
      }
      if (gap.holdsWhole(r)) {
        run.add(r);
      }
    }
    if (run.size() >= 2) {
      merges.add(run);
    }
    return merges;
  }

  /**
   * Merges the empty regions of every gap, after a cleanup that deleted {@code cleaned} (possibly
   * none: an earlier run's refused merges are tried again). Never throws: returns how many merges
   * completed.
   */
  int run(List<SnapshotKeys> cleaned) {
    if (!enabled) {
      return 0;
    }
    long deadline = System.nanoTime() + budget.toNanos();
    TableName table = dataset.dataTable();
    int done = 0;
    try (RegionLocator locator = connection.getRegionLocator(table); Admin admin = connection.getAdmin()) {
      Live live = store.read(EmptyRegionMerger::live);
      boolean janitorRan = false;
      for (Gap gap : gaps(live.keys(), cleaned, live.lastKeyNumber())) {
        for (List<RegionInfo> merge : merges(gap, regionsIn(locator, gap))) {
          if (!janitorRan) {
            // HBase merges no region that an earlier merge made until its catalog janitor (a chore
            // of the master, every 5 minutes by default) has dropped that region's parents, which
            // it does once the region holds no references to their files: ask for it now
            admin.runCatalogJanitor();
            janitorRan = true;
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            LOG.info("dataset {}: region merges stopped at their time budget {}; the next cleanup goes on", dataset,
                budget);
            return done;
          }
          if (merge(admin, locator, merge, left)) {
            done++;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("dataset {}: merging empty regions of {} stopped: {}; the next cleanup tries again", dataset, table,
          e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return done;
  }

  /**
   * The keys of every snapshot whose rows may still be in the table (retained, BUILDING, STAGED,
   * awaiting cleanup), and the last key number given.
   */
  record Live(List<SnapshotKeys> keys, long lastKeyNumber) {}

  static Live live(MetadataView view) {
    List<SnapshotKeys> live = new ArrayList<>();
    view.retained().forEach(s -> live.add(s.keys()));
    view.building().forEach(s -> live.add(s.keys()));
    view.staged().forEach(s -> live.add(s.keys())); // complete, waiting for an audit: its rows stay
    view.awaitingCleanup().forEach(s -> live.add(s.keys()));
    return new Live(live, view.lastKeyNumber());
  }

  /** The regions that overlap {@code gap}, in key order, through hbase:meta (fresh: cached ones may predate merges). */
  private static List<RegionInfo> regionsIn(RegionLocator locator, Gap gap) throws IOException {
    return DataTable.regionsIn(locator, gap.start(), gap.stop(), true, MAX_REGIONS_PER_GAP).stream()
        .map(HRegionLocation::getRegion).toList();
  }

  /** One merge procedure, waited for at most {@code leftNanos}; a refusal or a timeout is logged. */
  private boolean merge(Admin admin, RegionLocator locator, List<RegionInfo> regions, long leftNanos) throws InterruptedException {
    byte[][] names = regions.stream().map(RegionInfo::getEncodedNameAsBytes).toArray(byte[][]::new);
    String what = regions.size() + " empty regions from " + Bytes.toStringBinary(regions.get(0).getStartKey())
        + " to " + Bytes.toStringBinary(regions.get(regions.size() - 1).getEndKey());
    try {
      admin.mergeRegionsAsync(names, false).get(leftNanos, TimeUnit.NANOSECONDS);
      LOG.info("dataset {}: merged {}", dataset, what);
      // until it is compacted, the merged region refers to its parents' files, and HBase merges it
      // with nothing: ask for that now (it is empty, so it is cheap) rather than at the next
      // periodic major compaction
      admin.majorCompactRegion(locator.getRegionLocation(regions.get(0).getStartKey(), true).getRegion()
          .getRegionName());
      return true;
    } catch (IOException | ExecutionException | RuntimeException e) {
      LOG.info("dataset {}: HBase did not merge {} ({}); the next cleanup tries again", dataset, what,
          e.getCause() == null ? e.toString() : e.getCause().toString());
    } catch (TimeoutException e) {
      LOG.info("dataset {}: merging {} goes on in the master past the time budget", dataset, what);
    }
    return false;
  }
}
