package io.snapds.cli.env;

import io.snapds.dataset.tx.LocalTransactionService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.tephra.TransactionSystemClient;

/**
 * A real cluster: HBase from an {@code hbase-site.xml} or a ZooKeeper quorum, and Tephra's
 * transaction service (found through its ZooKeeper) or, with {@code --local-tx}, a transaction
 * manager in this process whose state lives in the given directory (only for a single user).
 */
final class ClusterEnvironment implements Environment {
  /**
   * How long the first contact with HBase may take before the cluster counts as unreachable, in
   * milliseconds: a system property ({@code SNAPDS_JAVA_OPTS=-Dsnapds.cluster.probe.timeout.ms=...}),
   * {@value #DEFAULT_PROBE_TIMEOUT_MS} unless set. A test of an unreachable quorum sets it short.
   */
  static final String PROBE_TIMEOUT_MS = "snapds.cluster.probe.timeout.ms";
  private static final long DEFAULT_PROBE_TIMEOUT_MS = 20_000;

  private final Connection connection;
  private final TransactionSystemClient txClient;
  private final AutoCloseable txOwner;
  private final String description;

  private ClusterEnvironment(Connection connection, TransactionSystemClient txClient, AutoCloseable txOwner,
      String description) {
    this.connection = connection;
    this.txClient = txClient;
    this.txOwner = txOwner;
    this.description = description;
  }

  static ClusterEnvironment connect(EnvironmentOptions options) {
    if (options.txService().isEmpty() && options.localTx().isEmpty()) {
      throw new EnvironmentException("a real HBase needs Tephra's transaction service: give --tx-service "
          + "ZK_QUORUM (or --local-tx DIR for a transaction manager in this process, one user only)");
    }
    Configuration conf = configuration(options);
    String where = options.hbaseSite().map(p -> "HBase of " + p)
        .orElseGet(() -> "HBase at ZooKeeper " + options.zookeeper().orElseThrow());
    Connection connection = connectAndProbe(conf, where, probeTimeout());
    try {
      if (options.txService().isPresent()) {
        TxServiceConnection tephra = TxServiceConnection.connect(options.txService().get(), conf);
        return new ClusterEnvironment(connection, tephra.client(), tephra, where);
      }
      LocalTx tx = LocalTx.open(options.localTx().get(), conf);
      return new ClusterEnvironment(connection, tx.service().client(), tx, where);
    } catch (RuntimeException e) {
      closeQuietly(connection);
      throw e;
    }
  }

  /**
   * A transaction manager in this process over {@code dir}, with the directory locked: only one
   * process may run a manager over one state directory.
   */
  record LocalTx(HomeLock lock, LocalTransactionService service) implements AutoCloseable {
    static LocalTx open(Path dir, Configuration conf) {
      HomeLock lock = HomeLock.acquire(dir, "local transaction state directory",
          "give each process its own --local-tx DIR (or use --tx-service)");
      try {
        return new LocalTx(lock, LocalTransactionService.persistent(dir.toFile(), conf));
      } catch (RuntimeException e) {
        lock.close();
        throw e;
      }
    }

    @Override
    public void close() {
      try {
        service.close();
      } finally {
        lock.close();
      }
    }
  }

  static Configuration configuration(EnvironmentOptions options) {
    Configuration conf = HBaseConfiguration.create();
    options.hbaseSite().ifPresent(site -> {
      if (!Files.isReadable(site)) {
        throw new EnvironmentException("cannot read HBase configuration " + site);
      }
      conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
    });
    options.zookeeper().ifPresent(quorum -> {
      int colon = quorum.lastIndexOf(':');
      if (colon > 0 && quorum.indexOf(',') < 0) {
        conf.set(HConstants.ZOOKEEPER_QUORUM, quorum.substring(0, colon));
        conf.set(HConstants.ZOOKEEPER_CLIENT_PORT, quorum.substring(colon + 1));
      } else {
        conf.set(HConstants.ZOOKEEPER_QUORUM, quorum);
      }
    });
    // a command line should say "unreachable" in seconds, not retry for minutes
    conf.setIfUnset("zookeeper.recovery.retry", "1");
    conf.setIfUnset(HConstants.HBASE_CLIENT_RETRIES_NUMBER, "5");
    conf.setIfUnset(HConstants.ZK_SESSION_TIMEOUT, "10000");
    return conf;
  }

  /** The {@link #PROBE_TIMEOUT_MS} system property, or its default. */
  static Duration probeTimeout() {
    String value = System.getProperty(PROBE_TIMEOUT_MS);
    if (value == null) {
      return Duration.ofMillis(DEFAULT_PROBE_TIMEOUT_MS);
    }
    long ms;
    try {
      ms = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      ms = 0;
    }
    if (ms <= 0) {
      throw new EnvironmentException("bad " + PROBE_TIMEOUT_MS + " '" + value
          + "': a number of milliseconds above 0");
    }
    return Duration.ofMillis(ms);
  }

  private static Connection connectAndProbe(Configuration conf, String where, Duration timeout) {
    CompletableFuture<Connection> probe = new CompletableFuture<>();
    Thread prober = new Thread(() -> {
      try {
        Connection c = ConnectionFactory.createConnection(conf);
        try (Admin admin = c.getAdmin()) {
          admin.listNamespaceDescriptors();
        } catch (IOException | RuntimeException e) {
          closeQuietly(c);
          throw e;
        }
        if (!probe.complete(c)) {
          closeQuietly(c); // too late: the caller gave up
        }
      } catch (IOException | RuntimeException e) {
        probe.completeExceptionally(e);
      }
    }, "snapds-cluster-probe");
    prober.setDaemon(true);
    prober.start();
    try {
      return probe.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      probe.cancel(true);
      String within = timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
      throw new EnvironmentException("cannot reach " + where + ": no answer within " + within
          + " (is the quorum right, and HBase running?)");
    } catch (ExecutionException e) {
      throw new EnvironmentException("cannot reach " + where + ": " + firstLine(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvironmentException("interrupted while connecting to " + where, e);
    }
  }

  private static String firstLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String msg = String.valueOf(root.getMessage());
    int nl = msg.indexOf('\n');
    return root.getClass().getSimpleName() + ": " + (nl < 0 ? msg : msg.substring(0, nl));
  }

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public TransactionSystemClient txClient() {
    return txClient;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public void close() {
    closeQuietly(connection);
    closeQuietly(txOwner);
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception e) {
        // closing anyway
      }
    }
  }
}
