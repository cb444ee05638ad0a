package io.snapds.cdap;

import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.StorageException;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.distributed.PooledClientProvider;
import org.apache.tephra.distributed.TransactionServiceClient;
import org.apache.tephra.shaded.com.google.common.collect.ArrayListMultimap;
import org.apache.tephra.shaded.org.apache.twill.discovery.ZKDiscoveryService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.RetryStrategies;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientServices;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClients;
import org.apache.tephra.zookeeper.TephraZKClientService;

/**
 * An open HBase connection and transaction client for one plugin call (prepareRun, a task,
 * onRunFinish): {@link #datasets()} works on them; {@link #close()} closes what this opened.
 */
public final class DatasetConnection implements AutoCloseable {
  private final Connection connection;
  private final TransactionSystemClient txClient;
  @Nullable
  private final ZKClientService zookeeper;
  private final SnapshotDatasets datasets;

  private DatasetConnection(Connection connection, TransactionSystemClient txClient,
      @Nullable ZKClientService zookeeper) {
    this.connection = connection;
    this.txClient = txClient;
    this.zookeeper = zookeeper;
    this.datasets = SnapshotDatasets.using(connection, txClient);
  }

  /**
   * Connects to HBase with {@code settings} over {@code base} (the runtime's configuration, or
   * hbase-site.xml when null) and to the transaction service the settings name.
   *
   * @throws StorageException if HBase cannot be reached
   * @throws IllegalStateException if an in-process transaction client is not registered
   */
  public static DatasetConnection open(ConnectionSettings settings, @Nullable Configuration base) {
    Configuration conf = settings.hbaseConfiguration(base);
    TransactionServiceSpec tx = settings.transactionService();
    TransactionSystemClient txClient = null;
    ZKClientService zookeeper = null;
    if (tx.inProcess()) {
      txClient = InProcessTransactionClients.get(tx.inProcessName());
    } else {
      zookeeper = startZooKeeper(conf);
      txClient = new TransactionServiceClient(conf, new PooledClientProvider(conf, new ZKDiscoveryService(zookeeper)));
    }
    try {
      return new DatasetConnection(ConnectionFactory.createConnection(conf), txClient, zookeeper);
    } catch (IOException | RuntimeException e) {
      if (zookeeper != null) {
        zookeeper.stopAndWait();
      }
      throw new StorageException("connecting to HBase at " + conf.get("hbase.zookeeper.quorum"), e);
    }
  }

  /** Tephra's own recipe: its quorum, else HBase's; retry with backoff; re-watch on session expiry. */
  private static ZKClientService startZooKeeper(Configuration conf) {
    String quorum = conf.get(ConnectionSettings.TX_ZOOKEEPER_QUORUM, conf.get("hbase.zookeeper.quorum"));
    if (quorum != null && !quorum.contains(":")) {
      quorum = quorum + ":" + conf.get("hbase.zookeeper.property.clientPort", "2181");
    }
    ZKClientService zk = ZKClientServices.delegate(ZKClients.reWatchOnExpire(ZKClients.retryOnFailure(
        new TephraZKClientService(quorum, conf.getInt("zookeeper.session.timeout", 180000), null,
            ArrayListMultimap.<String, byte[]>create()),
        RetryStrategies.exponentialDelay(500, 2000, TimeUnit.MILLISECONDS))));
    zk.startAndWait();
    return zk;
  }

  public SnapshotDatasets datasets() {
    return datasets;
  }

  public TransactionSystemClient transactionClient() {
    return txClient;
  }

  public Configuration configuration() {
    return connection.getConfiguration();
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (IOException e) {
      throw new StorageException("closing the HBase connection", e);
    } finally {
      if (zookeeper != null) {
        zookeeper.stopAndWait();
      }
    }
  }
}
