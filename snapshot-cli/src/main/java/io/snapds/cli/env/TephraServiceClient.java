package io.snapds.cli.env;

import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TxConstants;
import org.apache.tephra.distributed.PooledClientProvider;
import org.apache.tephra.distributed.TransactionServiceClient;
import org.apache.tephra.shaded.com.google.common.collect.ArrayListMultimap;
import org.apache.tephra.shaded.org.apache.twill.discovery.ZKDiscoveryService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.RetryStrategies;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientServices;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClients;
import org.apache.tephra.zookeeper.TephraZKClientService;
import java.util.concurrent.TimeUnit;

/**
 * A client of Tephra's distributed transaction service, found through ZooKeeper discovery: the
 * same parts Tephra's Guice modules ({@code ZKModule}, {@code ZKDiscoveryModule},
 * {@code TransactionClientModule}) put together, built by hand so that Guice need not be on the
 * class path.
 */
final class TephraServiceClient implements AutoCloseable {
  private final ZKClientService zk;
  private final TransactionServiceClient client;

  private TephraServiceClient(ZKClientService zk, TransactionServiceClient client) {
    this.zk = zk;
    this.client = client;
  }

  static TephraServiceClient connect(String zkQuorum, Configuration base) {
    Configuration conf = new Configuration(base);
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, zkQuorum);
    int sessionTimeout = conf.getInt(TxConstants.HBase.ZK_SESSION_TIMEOUT, 30_000);
    ZKClientService zk = ZKClientServices.delegate(ZKClients.reWatchOnExpire(ZKClients.retryOnFailure(
        new TephraZKClientService(zkQuorum, sessionTimeout, null, ArrayListMultimap.<String, byte[]>create()),
        RetryStrategies.exponentialDelay(500, 2000, TimeUnit.MILLISECONDS))));
    try {
      zk.start().get(sessionTimeout, TimeUnit.MILLISECONDS);
      PooledClientProvider provider = new PooledClientProvider(conf, new ZKDiscoveryService(zk));
      provider.initialize();
      return new TephraServiceClient(zk, new TransactionServiceClient(conf, provider));
    } catch (Exception e) {
      zk.stopAndWait();
      throw new EnvironmentException("cannot reach the Tephra transaction service through ZooKeeper "
          + zkQuorum + ": " + e.getMessage(), e);
    }
  }

  TransactionServiceClient client() {
    return client;
  }

  @Override
  public void close() {
    zk.stopAndWait();
  }
}
