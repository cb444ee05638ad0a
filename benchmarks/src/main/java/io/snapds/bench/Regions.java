package io.snapds.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;

/** Region-level helpers of the benchmarks: splitting a table, and a hand-written parallel delete. */
final class Regions {
  private Regions() {}

  /** Splits {@code table} at each of {@code points} (in order), waiting for each split. */
  static void split(Connection c, TableName table, List<byte[]> points) throws Exception {
    try (RegionLocator locator = c.getRegionLocator(table); Admin admin = c.getAdmin()) {
      for (byte[] point : points) {
        admin.splitRegionAsync(locator.getRegionLocation(point, true).getRegion().getRegionName(), point)
            .get(2, TimeUnit.MINUTES);
      }
    }
  }

  /**
   * Deletes every row of {@code table} region by region on {@code threads} threads, each region
   * scanned key-only and deleted through its own {@code BufferedMutator}: what a user who knows
   * HBase would write by hand. Returns how many rows it deleted.
   */
  static long scanAndDeleteParallel(Connection c, TableName table, int threads) throws Exception {
    List<HRegionLocation> regions;
    try (RegionLocator locator = c.getRegionLocator(table)) {
      regions = locator.getAllRegionLocations();
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Long>> done = new ArrayList<>();
      for (HRegionLocation r : regions) {
        done.add(pool.submit(() -> delete(c, table, r.getRegion().getStartKey(), r.getRegion().getEndKey())));
      }
      long rows = 0;
      for (Future<Long> f : done) {
        rows += f.get();
      }
      return rows;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long delete(Connection c, TableName table, byte[] start, byte[] stop) throws IOException {
    Scan keysOnly = new Scan().withStartRow(start).withStopRow(stop)
        .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
        .setCaching(PlainOps.DELETE_BATCH).setCacheBlocks(false);
    long rows = 0;
    try (Table t = c.getTable(table); ResultScanner rs = t.getScanner(keysOnly);
        BufferedMutator m = c.getBufferedMutator(new BufferedMutatorParams(table).writeBufferSize(PlainOps.BUFFER))) {
      for (Result r : rs) {
        m.mutate(new Delete(r.getRow()));
        rows++;
      }
    }
    return rows;
  }
}
