package io.snapds.cli.env;

import io.snapds.dataset.tx.LocalTransactionService;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.tephra.TransactionSystemClient;
import org.slf4j.LoggerFactory;

/**
 * The default environment: HBase standalone and a Tephra transaction manager in this process,
 * both keeping their state under the home directory ({@code hbase/}, {@code zookeeper/},
 * {@code tx/}), which one process at a time may use.
 */
final class EmbeddedEnvironment implements Environment {
  private final Path home;
  private final HomeLock lock;
  private final EmbeddedHBase hbase;
  private final LocalTransactionService tx;
  private final Connection connection;

  private EmbeddedEnvironment(Path home, HomeLock lock, EmbeddedHBase hbase, LocalTransactionService tx,
      Connection connection) {
    this.home = home;
    this.lock = lock;
    this.hbase = hbase;
    this.tx = tx;
    this.connection = connection;
  }

  static EmbeddedEnvironment start(Path home) {
    long t0 = System.nanoTime();
    HomeLock lock = HomeLock.acquire(home);
    EmbeddedHBase hbase = null;
    LocalTransactionService tx = null;
    try {
      hbase = EmbeddedHBase.start(home);
      Configuration conf = hbase.clientConfiguration();
      tx = LocalTransactionService.persistent(home.resolve("tx").toFile(), conf);
      Connection connection = ConnectionFactory.createConnection(conf);
      LoggerFactory.getLogger(EmbeddedEnvironment.class).info("embedded HBase and Tephra in {} started in {} ms "
          + "({} ms since the JVM started)", home, (System.nanoTime() - t0) / 1_000_000,
          ManagementFactory.getRuntimeMXBean().getUptime());
      return new EmbeddedEnvironment(home, lock, hbase, tx, connection);
    } catch (IOException | RuntimeException e) {
      closeQuietly(tx, hbase, lock);
      throw new EnvironmentException("starting the embedded HBase in " + home + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeQuietly(tx, hbase, lock);
      throw new EnvironmentException("interrupted while starting the embedded HBase", e);
    }
  }

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public TransactionSystemClient txClient() {
    return tx.client();
  }

  @Override
  public String description() {
    return "embedded HBase in " + home;
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (IOException e) {
      // stopping anyway
    }
    closeQuietly(tx, hbase, lock);
  }

  private static void closeQuietly(AutoCloseable... parts) {
    for (AutoCloseable part : parts) {
      if (part != null) {
        try {
          part.close();
        } catch (Exception e) {
          // stop the others anyway
        }
      }
    }
  }
}
