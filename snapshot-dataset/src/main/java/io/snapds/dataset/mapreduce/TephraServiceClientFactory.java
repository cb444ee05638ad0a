package io.snapds.dataset.mapreduce;

import com.google.inject.Guice;
import com.google.inject.Injector;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.distributed.TransactionServiceClient;
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
  private ZKClientService zookeeper;

  @Override
  public TransactionSystemClient create(Configuration conf) {
    Injector injector = Guice.createInjector(new ConfigModule(conf), new ZKModule(),
        new DiscoveryModules().getDistributedModules(), new TransactionModules().getDistributedModules(),
        new TransactionClientModule());
    zookeeper = injector.getInstance(ZKClientService.class);
    try {
      zookeeper.startAndWait();
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot reach ZooKeeper at '" + zookeeper.getConnectString()
          + "' to find the Tephra transaction service", e);
    }
    return injector.getInstance(TransactionServiceClient.class);
  }

  @Override
  public void close() {
    if (zookeeper != null) {
      zookeeper.stopAndWait();
    }
  }
}
