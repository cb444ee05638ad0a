package io.snapds.cdap;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.tephra.TransactionSystemClient;

/**
 * Transaction clients of this JVM, by name, for {@code transactionService = in-process:<name>}:
 * a pipeline engine embedded in a process that runs its own Tephra transaction manager (and
 * tests, whose MapReduce tasks run in the test's JVM) registers its client here.
 */
public final class InProcessTransactionClients {
  private static final Map<String, TransactionSystemClient> CLIENTS = new ConcurrentHashMap<>();

  private InProcessTransactionClients() {
  }

  public static void register(String name, TransactionSystemClient client) {
    checkArgument(name != null && !name.isBlank(), "name must not be empty");
    CLIENTS.put(name, checkNotNull(client, "client"));
  }

  public static void unregister(String name) {
    CLIENTS.remove(name);
  }

  /** @throws IllegalStateException naming the name when nothing is registered under it */
  static TransactionSystemClient get(String name) {
    TransactionSystemClient client = CLIENTS.get(name);
    if (client == null) {
      throw new IllegalStateException("no transaction client is registered in this JVM as '" + name
          + "' (transactionService = in-process:" + name + "); registered: " + CLIENTS.keySet());
    }
    return client;
  }
}
