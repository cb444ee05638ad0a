package io.snapds.bench;

import io.snapds.dataset.mapreduce.TransactionClientFactory;
import io.snapds.dataset.testing.MiniCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;

/** Jobs under the local job runner use the benchmark JVM's transaction manager. */
public final class MiniClusterTxClientFactory implements TransactionClientFactory {
  @Override
  public TransactionSystemClient create(Configuration conf) {
    return MiniCluster.get().txClient();
  }
}
