package io.snapds.cdap;

import io.snapds.dataset.tx.TransactionClientFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;

/**
 * The {@link TransactionClientFactory} of {@code transactionService = in-process:<name>}: the
 * client registered in this JVM under the name in {@link PluginConfKeys#IN_PROCESS_TX_NAME}.
 * The client stays its registrant's: closing does nothing.
 */
public final class InProcessTransactionClientFactory implements TransactionClientFactory {
  /**
   * @throws IllegalStateException naming the name when no client is registered under it
   */
  @Override
  public TransactionSystemClient create(Configuration conf) {
    String name = conf.getTrimmed(PluginConfKeys.IN_PROCESS_TX_NAME);
    if (name == null) {
      throw new IllegalStateException("no in-process transaction client named: "
          + PluginConfKeys.IN_PROCESS_TX_NAME + " is not set");
    }
    return InProcessTransactionClients.get(name);
  }
}
