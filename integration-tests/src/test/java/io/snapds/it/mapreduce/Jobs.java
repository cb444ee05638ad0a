package io.snapds.it.mapreduce;

import io.snapds.dataset.mapreduce.SnapshotMapReduceUtil;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
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

  /** Splits the region of {@code table} holding {@code point} at it ({@link MiniCluster#splitAt}). */
  static void splitAt(MiniCluster cluster, TableName table, byte[] point) throws Exception {
    cluster.splitAt(table, point);
  }

}
