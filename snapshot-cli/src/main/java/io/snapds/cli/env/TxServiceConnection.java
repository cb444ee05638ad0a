package io.snapds.cli.env;

import io.snapds.dataset.tx.TephraServiceClientFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.TxConstants;

/**
 * The command line's connection to Tephra's distributed transaction service at a given ZooKeeper
 * quorum. Not a client of its own: the client is the core's {@link TephraServiceClientFactory}'s
 * (the one way this project reaches the service); this holds it with the factory that closes it,
 * sets the quorum, waits for ZooKeeper as long as a session may take ({@code zookeeper.session.timeout},
 * where the factory's default is 30 s) and gives a failure as the command line's
 * {@link EnvironmentException}.
 */
public final class TxServiceConnection implements AutoCloseable {
  private final TephraServiceClientFactory factory;
  private final TransactionSystemClient client;

  private TxServiceConnection(TephraServiceClientFactory factory, TransactionSystemClient client) {
    this.factory = factory;
    this.client = client;
  }

  public static TxServiceConnection connect(String zkQuorum, Configuration base) {
    Configuration conf = new Configuration(base);
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, zkQuorum);
    // wait for ZooKeeper as long as a session may take to establish
    conf.setLong(TephraServiceClientFactory.ZOOKEEPER_CONNECT_TIMEOUT_MS,
        conf.getInt(TxConstants.HBase.ZK_SESSION_TIMEOUT, 30_000));
    TephraServiceClientFactory factory = new TephraServiceClientFactory();
    try {
      return new TxServiceConnection(factory, factory.create(conf));
    } catch (RuntimeException e) {
      factory.close();
      throw new EnvironmentException("cannot reach the Tephra transaction service through ZooKeeper "
          + zkQuorum + ": " + e.getMessage(), e);
    }
  }

  public TransactionSystemClient client() {
    return client;
  }

  @Override
  public void close() {
    factory.close();
  }
}
