package io.snapds.hive;

import io.snapds.dataset.mapreduce.TransactionClientFactory;
import io.snapds.dataset.testing.MiniCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;

/** The shared mini cluster's Tephra client, for the handler under test. */
public final class MiniClusterTxClientFactory implements TransactionClientFactory {
  @Override
  public TransactionSystemClient create(Configuration conf) {
    return MiniCluster.get().txClient();
  }
}
