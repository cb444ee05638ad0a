package io.snapds.cli.env;

import java.nio.file.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.tephra.TransactionSystemClient;

/**
 * The server's own connection and transaction client, lent to the commands it runs: a command's
 * {@link #lend() loan} leaves them open when the command closes it; the server closes them when it
 * stops.
 */
final class SharedEnvironment implements Environment {
  private final Path home;
  private final Connection connection;
  private final TephraServiceClient tephra;

  SharedEnvironment(Path home, Connection connection, TephraServiceClient tephra) {
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

  /** A view for one command: closing it closes nothing. */
  Environment lend() {
    SharedEnvironment owner = this;
    return new Environment() {
      @Override
      public Connection connection() {
        return owner.connection();
      }

      @Override
      public TransactionSystemClient txClient() {
        return owner.txClient();
      }

      @Override
      public String description() {
        return owner.description();
      }

      @Override
      public void close() {
        // the server's: it stays open for the next command
      }
    };
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (Exception e) {
      // stopping anyway
    }
    tephra.close();
  }
}
