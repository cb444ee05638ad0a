package io.snapds.cli.env;

import static com.google.common.base.Preconditions.checkNotNull;

import org.apache.hadoop.hbase.client.Connection;
import org.apache.tephra.TransactionSystemClient;

/** An environment over parts someone else owns and closes (the tests' shared mini cluster). */
final class InjectedEnvironment implements Environment {
  private final Connection connection;
  private final TransactionSystemClient txClient;

  InjectedEnvironment(Connection connection, TransactionSystemClient txClient) {
    this.connection = checkNotNull(connection, "connection");
    this.txClient = checkNotNull(txClient, "transaction client");
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
    return "injected HBase connection";
  }

  @Override
  public void close() {
    // the owner closes the connection and the transaction client
  }
}
