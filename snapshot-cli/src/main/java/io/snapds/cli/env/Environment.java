package io.snapds.cli.env;

import io.snapds.dataset.SnapshotDatasets;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.tephra.TransactionSystemClient;

/**
 * Where the commands run: an HBase connection and a Tephra transaction client, open until
 * {@link #close()}. Three kinds exist: the embedded default (HBase standalone and a Tephra
 * transaction manager in this process, data under a home directory), a given cluster (HBase from
 * its configuration, Tephra's transaction service or a local manager), and one injected by tests
 * over a cluster they own.
 */
public interface Environment extends AutoCloseable {
  Connection connection();

  TransactionSystemClient txClient();

  /** One line saying where the data lives, for messages ("embedded HBase in /home/u/.snapds"). */
  String description();

  default SnapshotDatasets datasets() {
    return SnapshotDatasets.using(connection(), txClient());
  }

  /** Releases what this environment started; an injected one leaves its parts running. */
  @Override
  void close();

  /**
   * An environment over a connection and transaction client owned by the caller (tests):
   * closing it closes neither.
   */
  static Environment injected(Connection connection, TransactionSystemClient txClient) {
    return new InjectedEnvironment(connection, txClient);
  }
}
