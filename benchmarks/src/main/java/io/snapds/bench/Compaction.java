package io.snapds.bench;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;

/**
 * Brings a table to one store file per region and family (flush, major compaction, wait), so that
 * both sides of a read benchmark read the same kind of storage. It checks the regions of the
 * in-process cluster directly: a compaction request is asynchronous, and its state reads NONE
 * before it has started as well as after it has finished.
 */
final class Compaction {
  private Compaction() {}

  static void settle(HBaseTestingUtility util, TableName table) throws IOException {
    try (Admin admin = util.getConnection().getAdmin()) {
      admin.flush(table);
      admin.majorCompact(table);
      long deadline = System.currentTimeMillis() + 600_000;
      long asked = System.currentTimeMillis();
      // (waiting for empty memstores as well hung on a dataset's data table: left out)
      while (admin.getCompactionState(table) != CompactionState.NONE || maxStoreFiles(util, table) > 1) {
        long now = System.currentTimeMillis();
        if (now > deadline) {
          throw new IOException("major compaction of " + table + " did not finish in 10 minutes; store files per "
              + "region: " + storeFiles(util, table));
        }
        // A region that moved or split after the request (a build's begin() moves regions, the
        // pre-split benchmark stops region servers) drops it: nothing runs, files stay. Ask again.
        if (now - asked > 30_000 && admin.getCompactionState(table) == CompactionState.NONE) {
          admin.flush(table);
          admin.majorCompact(table);
          asked = now;
        }
        Thread.sleep(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("waiting for the compaction of " + table);
    }
  }

  private static String storeFiles(HBaseTestingUtility util, TableName table) {
    StringBuilder out = new StringBuilder();
    for (HRegion region : util.getHBaseCluster().getRegions(table)) {
      for (HStore store : region.getStores()) {
        out.append(region.getRegionInfo().getEncodedName()).append('/').append(store.getColumnFamilyName())
            .append('=').append(store.getStorefilesCount()).append(' ');
      }
    }
    return out.toString().trim();
  }

  private static int maxStoreFiles(HBaseTestingUtility util, TableName table) {
    int max = 0;
    for (HRegion region : util.getHBaseCluster().getRegions(table)) {
      for (HStore store : region.getStores()) {
        max = Math.max(max, store.getStorefilesCount());
      }
    }
    return max;
  }
}
