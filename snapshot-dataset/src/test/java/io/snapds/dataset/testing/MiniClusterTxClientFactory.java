package io.snapds.dataset.testing;

import io.snapds.dataset.tx.TransactionClientFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;

/** Jobs under the local job runner share the test JVM's transaction manager. */
public final class MiniClusterTxClientFactory implements TransactionClientFactory {
  @Override
  public TransactionSystemClient create(Configuration conf) {
    return MiniCluster.get().txClient();
  }
}
