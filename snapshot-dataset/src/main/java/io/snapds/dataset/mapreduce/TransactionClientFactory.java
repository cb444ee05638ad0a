package io.snapds.dataset.mapreduce;

import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;

/**
 * Makes the Tephra client that a job's processes (the submitting client, the application master,
 * the tasks) use to reach the transaction service. Named in the job configuration under
 * {@link JobDatasets#TX_CLIENT_FACTORY}; the default is {@link TephraServiceClientFactory}.
 * One instance serves one {@link JobDatasets}: {@link #create} is called once, {@link #close}
 * releases what it started. Implementations need a public no-argument constructor.
 */
public interface TransactionClientFactory extends AutoCloseable {
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
