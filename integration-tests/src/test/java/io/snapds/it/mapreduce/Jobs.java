package io.snapds.it.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.mapreduce.SnapshotMapReduceUtil;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.mapreduce.Job;

/** What the MapReduce tests share: a local job on the mini cluster, run in the background, and region splits. */
final class Jobs {
  private Jobs() {}

  /** A job on the local runner against the mini cluster, with its transaction client. */
  static Job newJob(MiniCluster cluster, String name) throws IOException {
    Configuration conf = new Configuration(cluster.configuration());
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.client.completion.pollinterval", 50); // default 5 s per job
    conf.set(JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
    return Job.getInstance(conf, name);
  }

  /** {@link SnapshotMapReduceUtil#runJob} on another thread. */
  static CompletableFuture<Boolean> runAsync(Job job) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return SnapshotMapReduceUtil.runJob(job, false);
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
  }

  /** Splits the region of {@code table} holding {@code point} at it, and checks there is one region more. */
  static void splitAt(MiniCluster cluster, TableName table, byte[] point) throws Exception {
    Connection connection = cluster.connection();
    try (Admin admin = connection.getAdmin(); RegionLocator locator = connection.getRegionLocator(table)) {
      int before = locator.getAllRegionLocations().size();
      byte[] region = locator.getRegionLocation(point, true).getRegion().getRegionName();
      admin.splitRegionAsync(region, point).get(2, TimeUnit.MINUTES);
      assertEquals(before + 1, locator.getAllRegionLocations().size());
    }
  }
}
