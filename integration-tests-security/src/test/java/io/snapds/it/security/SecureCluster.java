package io.snapds.it.security;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.tx.LocalTransactionService;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.SecureTestUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One HBase mini cluster with authorization on and the {@code AccessController} coprocessor on
 * master, region servers and regions, for this module's test JVM. The JVM's own user is the
 * superuser; test users are made with {@link User#createUserForTesting} and reach HBase through
 * connections of their own, so every RPC is checked as them.
 */
final class SecureCluster {
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static SecureCluster instance;

  private final HBaseTestingUtility util;
  private final Connection superConnection;
  private final LocalTransactionService tx;
  private final Map<String, Connection> connections = new HashMap<>();

  private SecureCluster() throws Exception {
    util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    SecureTestUtil.enableSecurity(conf); // hbase.security.authorization=true, AccessController everywhere
    conf.setInt("hbase.client.retries.number", 3);
    util.startMiniCluster();
    util.waitTableEnabled(org.apache.hadoop.hbase.security.access.PermissionStorage.ACL_TABLE_NAME);
    superConnection = ConnectionFactory.createConnection(conf);
    tx = LocalTransactionService.inMemory(conf);
  }

  static synchronized SecureCluster get() {
    if (instance == null) {
      try {
        instance = new SecureCluster();
      } catch (Exception e) {
        throw new IllegalStateException("starting the secured mini cluster failed", e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "secure-cluster-stop"));
    }
    return instance;
  }

  Configuration configuration() {
    return util.getConfiguration();
  }

  /** The superuser's view (the JVM's own user). */
  SnapshotDatasets superuser() {
    return SnapshotDatasets.using(superConnection, tx.client());
  }

  /** A test user's view: its own connection, so HBase checks every call as that user. */
  synchronized SnapshotDatasets as(String user) {
    Connection c = connections.computeIfAbsent(user, u -> {
      try {
        User testUser = User.createUserForTesting(configuration(), u, new String[] {u + "_group"});
        return testUser.runAs((java.security.PrivilegedExceptionAction<Connection>)
            () -> ConnectionFactory.createConnection(configuration(), testUser));
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException("connecting as " + u, e);
      }
    });
    return SnapshotDatasets.using(c, tx.client());
  }

  /**
   * Waits until {@code user} may (or may not) read the dataset's properties: grants and revokes
   * reach the servers' permission caches through ZooKeeper a moment after they are stored.
   */
  void awaitReadAccess(String user, DatasetId dataset, boolean allowed) {
    Connection c = as(user).connection();
    RetryPolicy<Boolean> poll = RetryPolicy.<Boolean>builder().handleResultIf(r -> r != allowed)
        .withDelay(Duration.ofMillis(50)).withMaxRetries(-1).withMaxDuration(Duration.ofSeconds(60)).build();
    boolean reached = Failsafe.with(poll).get(() -> canRead(c, dataset));
    if (reached != allowed) {
      throw new IllegalStateException("access of " + user + " to " + dataset + " did not become " + allowed);
    }
  }

  private static boolean canRead(Connection c, DatasetId dataset) throws IOException {
    try (Table t = c.getTable(dataset.metaTable())) {
      t.get(new Get(Bytes.toBytes("p")));
      return true;
    } catch (AccessDeniedException e) {
      return false;
    } catch (IOException e) {
      if (e.getCause() instanceof AccessDeniedException) {
        return false;
      }
      throw e;
    }
  }

  static DatasetId uniqueDataset(String prefix) {
    return DatasetId.of("sec", prefix + "_" + NAMES.incrementAndGet());
  }

  private void stop() {
    try {
      tx.close();
      for (Connection c : connections.values()) {
        c.close();
      }
      superConnection.close();
      util.shutdownMiniCluster();
    } catch (IOException | RuntimeException ignored) {
      // stopping anyway
    }
  }
}
