package io.snapds.dataset.tx;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.tephra.TransactionSystemClient;

/**
 * Makes the Tephra client that a job's processes (the submitting client, the application master,
 * the tasks) use to reach the transaction service. Named in the job configuration under
 * {@link #CLASS_SETTING}; the default is {@link TephraServiceClientFactory}.
 * One instance serves one {@link JobDatasets}: {@link #create} is called once, {@link #close}
 * releases what it started. Implementations need a public no-argument constructor.
 */
public interface TransactionClientFactory extends AutoCloseable {
  /** Class name of the factory a process uses; default {@link TephraServiceClientFactory}. */
  String CLASS_SETTING = "snapds.tx.client.factory";

  /**
   * A new instance of the factory that {@code conf} names under {@link #CLASS_SETTING}
   * ({@link TephraServiceClientFactory} if none), configured with {@code conf}.
   */
  static TransactionClientFactory fromConfiguration(Configuration conf) {
    Class<? extends TransactionClientFactory> factoryClass =
        conf.getClass(CLASS_SETTING, TephraServiceClientFactory.class, TransactionClientFactory.class);
    return ReflectionUtils.newInstance(factoryClass, conf);
  }

  /**
   * A client for the transaction service that {@code conf} names.
   *
   * @throws IllegalStateException if the service cannot be reached
   */
  TransactionSystemClient create(Configuration conf);

  /** Releases what {@link #create} started (for example a ZooKeeper session). */
  @Override
  default void close() {}
}
