package io.snapds.cli.env;

import io.snapds.dataset.tx.TephraServiceClientFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.TxConstants;

/**
 * A client of Tephra's distributed transaction service at a given ZooKeeper quorum: the core's
 * {@link TephraServiceClientFactory} (the one way this project reaches the service), with the
 * quorum set and its failure given as the command line's {@link EnvironmentException}.
 */
final class TephraServiceClient implements AutoCloseable {
  private final TephraServiceClientFactory factory;
  private final TransactionSystemClient client;

  private TephraServiceClient(TephraServiceClientFactory factory, TransactionSystemClient client) {
    this.factory = factory;
    this.client = client;
  }

  static TephraServiceClient connect(String zkQuorum, Configuration base) {
    Configuration conf = new Configuration(base);
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, zkQuorum);
    // wait for ZooKeeper as long as a session may take to establish
    conf.setLong(TephraServiceClientFactory.ZOOKEEPER_CONNECT_TIMEOUT_MS,
        conf.getInt(TxConstants.HBase.ZK_SESSION_TIMEOUT, 30_000));
    TephraServiceClientFactory factory = new TephraServiceClientFactory();
    try {
      return new TephraServiceClient(factory, factory.create(conf));
    } catch (RuntimeException e) {
      factory.close();
      throw new EnvironmentException("cannot reach the Tephra transaction service through ZooKeeper "
          + zkQuorum + ": " + e.getMessage(), e);
    }
  }

  TransactionSystemClient client() {
    return client;
  }

  @Override
  public void close() {
    factory.close();
  }
}
