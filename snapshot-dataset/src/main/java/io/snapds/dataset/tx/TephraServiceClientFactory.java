package io.snapds.dataset.tx;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Scopes;
import com.google.inject.util.Modules;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.distributed.TransactionServiceClient;
import org.apache.tephra.metrics.MetricsCollector;
import org.apache.tephra.metrics.TxMetricsCollector;
import org.apache.tephra.runtime.ConfigModule;
import org.apache.tephra.runtime.DiscoveryModules;
import org.apache.tephra.runtime.TransactionClientModule;
import org.apache.tephra.runtime.TransactionModules;
import org.apache.tephra.runtime.ZKModule;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;

/**
 * The client of a Tephra transaction service found through ZooKeeper, configured the way Tephra's
 * own clients are: {@code data.tx.zookeeper.quorum} (host:port list), else
 * {@code hbase.zookeeper.quorum} as it stands (ZooKeeper's default port unless the hosts carry
 * one); {@code data.tx.discovery.service.name}. Wired with Tephra's Guice modules, as
 * {@code TransactionServiceClient} itself does.
 */
public final class TephraServiceClientFactory implements TransactionClientFactory {
  /**
   * How long {@link #create} waits for ZooKeeper, in milliseconds (default 30 s): Tephra's own
   * ZooKeeper client retries an unreachable quorum forever, which held CDAP pipeline runs in
   * prepareRun with nothing in their logs.
   */
  public static final String ZOOKEEPER_CONNECT_TIMEOUT_MS = "snapds.tx.zookeeper.connect.timeout.ms";
  static final long DEFAULT_ZOOKEEPER_CONNECT_TIMEOUT_MS = 30_000;

  private ZKClientService zookeeper;

  @Override
  public TransactionSystemClient create(Configuration conf) {
    // The transaction manager's metrics collector is bound by Tephra's modules but never used by a
    // client. Its default (DefaultMetricsCollector) refers to Dropwizard metrics 3's JmxReporter,
    // which Dropwizard 4 (Spark 4's) moved: Guice's check of that binding failed every client
    // next to Spark 4 with NoClassDefFoundError. A client binds the no-op collector instead.
    Injector injector = Guice.createInjector(new ConfigModule(conf), new ZKModule(),
        new DiscoveryModules().getDistributedModules(),
        Modules.override(new TransactionModules().getDistributedModules()).with(
            binder -> binder.bind(MetricsCollector.class).to(TxMetricsCollector.class).in(Scopes.SINGLETON)),
        new TransactionClientModule());
    zookeeper = injector.getInstance(ZKClientService.class);
    long timeoutMs = conf.getLong(ZOOKEEPER_CONNECT_TIMEOUT_MS, DEFAULT_ZOOKEEPER_CONNECT_TIMEOUT_MS);
    String quorum = zookeeper.getConnectString();
    try {
      zookeeper.start().get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      abandonZookeeper();
      throw new IllegalStateException("cannot reach ZooKeeper at '" + quorum
          + "' within " + timeoutMs + " ms (" + ZOOKEEPER_CONNECT_TIMEOUT_MS + ") to find the Tephra transaction service", e);
    } catch (ExecutionException | RuntimeException e) {
      throw new IllegalStateException("cannot reach ZooKeeper at '" + quorum
          + "' to find the Tephra transaction service", e instanceof ExecutionException ? e.getCause() : e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abandonZookeeper();
      throw new IllegalStateException("interrupted while connecting to ZooKeeper at '" + quorum + "'", e);
    }
    return injector.getInstance(TransactionServiceClient.class);
  }

  /**
   * A client still starting cannot be stopped (Guava's service stops it once its start finishes,
   * which for an unreachable quorum is never): ask it to stop and do not wait for it in close().
   * Its ZooKeeper threads are daemons and keep retrying until the process ends.
   */
  private void abandonZookeeper() {
    zookeeper.stop();
    zookeeper = null;
  }

  @Override
  public void close() {
    if (zookeeper != null) {
      zookeeper.stopAndWait();
    }
  }
}
