package io.snapds.hive;

import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;

/**
 * Connects the storage handler to the Tephra transaction service. Name the implementation in the
 * setting {@code snapds.tx.client.provider} (hive-site.xml, or {@code SET} in the session); it
 * needs a public no-argument constructor. The handler asks once per JVM and configuration and
 * keeps the client for the life of the JVM.
 */
public interface TransactionClientProvider {
  /** A client of the transaction service the datasets' writers use. */
  TransactionSystemClient client(Configuration conf);
}
