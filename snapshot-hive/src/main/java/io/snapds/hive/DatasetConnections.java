package io.snapds.hive;

import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.StorageException;
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
 * readers). Kept until the JVM exits, as HBase connections are meant to be.
 */
final class DatasetConnections {
  private static final Map<String, SnapshotDatasets> OPEN = new ConcurrentHashMap<>();

  private DatasetConnections() {}

  static SnapshotDatasets datasets(Configuration conf) {
    String cluster = conf.get(HConstants.ZOOKEEPER_QUORUM, "localhost") + ":"
        + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT, "2181") + conf.get(HConstants.ZOOKEEPER_ZNODE_PARENT, "/hbase")
        + "|" + conf.get(HiveTableProperties.TX_CLIENT_PROVIDER, "");
    return OPEN.computeIfAbsent(cluster, k -> open(conf));
  }

  private static SnapshotDatasets open(Configuration conf) {
    String providerClass = conf.get(HiveTableProperties.TX_CLIENT_PROVIDER);
    if (providerClass == null || providerClass.isBlank()) {
      throw new IllegalStateException("setting " + HiveTableProperties.TX_CLIENT_PROVIDER
          + " is missing: name the TransactionClientProvider class that connects to Tephra");
    }
    TransactionClientProvider provider;
    try {
      provider = Class.forName(providerClass.trim(), true, Thread.currentThread().getContextClassLoader() == null
              ? DatasetConnections.class.getClassLoader() : Thread.currentThread().getContextClassLoader())
          .asSubclass(TransactionClientProvider.class).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException(HiveTableProperties.TX_CLIENT_PROVIDER + " '" + providerClass
          + "' is not a TransactionClientProvider with a public no-argument constructor", e);
    }
    try {
      Connection connection = ConnectionFactory.createConnection(HBaseConfiguration.create(conf));
      return SnapshotDatasets.using(connection, provider.client(conf));
    } catch (IOException e) {
      throw new StorageException("connecting to HBase", e);
    }
  }
}
