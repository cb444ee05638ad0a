package io.snapds.hive;

import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.StorageException;
import io.snapds.dataset.tx.TransactionClientFactory;
import io.snapds.dataset.security.KeytabLogin;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * One HBase connection and one Tephra client per JVM and cluster, shared by the handler, the
 * input format and the record readers (a Hive server compiles many queries; a task opens many
 * readers). Kept until the JVM exits, as HBase connections are meant to be. The Tephra client
 * comes from the {@link TransactionClientFactory} named by {@code snapds.tx.client.factory}
 * (default: Tephra's transaction service, found through ZooKeeper), as for MapReduce jobs.
 */
final class DatasetConnections {
  private static final Map<String, SnapshotDatasets> OPEN = new ConcurrentHashMap<>();

  private DatasetConnections() {}

  static SnapshotDatasets datasets(Configuration conf) {
    String cluster = conf.get(HConstants.ZOOKEEPER_QUORUM, "localhost") + ":"
        + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT, "2181") + conf.get(HConstants.ZOOKEEPER_ZNODE_PARENT, "/hbase")
        + "|" + conf.get(TransactionClientFactory.CLASS_SETTING, "");
    return OPEN.computeIfAbsent(cluster, k -> open(conf));
  }

  private static SnapshotDatasets open(Configuration conf) {
    TransactionClientFactory factory = TransactionClientFactory.fromConfiguration(conf);
    try {
      KeytabLogin.loginIfConfigured(conf); // snapds.kerberos.principal/keytab, when the server is not logged in
      Connection connection = ConnectionFactory.createConnection(HBaseConfiguration.create(conf));
      return SnapshotDatasets.using(connection, factory.create(conf));
    } catch (IOException e) {
      throw new StorageException("connecting to HBase", e);
    }
  }
}
