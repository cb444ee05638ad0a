package io.snapds.cli.server;

import io.snapds.cli.env.Environment;
import io.snapds.cli.env.TxServiceConnection;
import java.nio.file.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.tephra.TransactionSystemClient;

/**
 * The server's own connection and transaction client, lent to the commands it runs: a command's
 * {@link #close()} leaves them open; the server closes them with {@link #shutDown()} when it stops.
 */
final class SharedEnvironment implements Environment {
  private final Path home;
  private final Connection connection;
  private final TxServiceConnection tephra;

  SharedEnvironment(Path home, Connection connection, TxServiceConnection tephra) {
    this.home = home;
    this.connection = connection;
    this.tephra = tephra;
  }

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public TransactionSystemClient txClient() {
    return tephra.client();
  }

  @Override
  public String description() {
    return "embedded HBase in " + home;
  }

  /** A command's close: the connection and client stay open for the next command. */
  @Override
  public void close() {
    // the server's, closed by shutDown()
  }

  /** The server's close, when it stops. */
  void shutDown() {
    try {
      connection.close();
    } catch (Exception e) {
      // stopping anyway
    }
    tephra.close();
  }
}
