package io.snapds.dataset.tx;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The snapshot datasets one process of a job (or of a Hive or CDAP adapter) works with: an HBase connection and a Tephra client,
 * both made from the job configuration, closed together. The submitting client, the application
 * master's committer and the tasks each open their own.
 */
@InterfaceAudience.Private
public final class JobDatasets implements AutoCloseable {
  /** Class name of the {@link TransactionClientFactory}; default {@link TephraServiceClientFactory}. */
  public static final String TX_CLIENT_FACTORY = TransactionClientFactory.CLASS_SETTING;

  private final Connection connection;
  private final TransactionClientFactory txFactory;
  private final SnapshotDatasets datasets;

  private JobDatasets(Connection connection, TransactionClientFactory txFactory, SnapshotDatasets datasets) {
    this.connection = connection;
    this.txFactory = txFactory;
    this.datasets = datasets;
  }

  /** Connects to HBase and the transaction service that {@code conf} names. */
  public static JobDatasets open(Configuration conf) throws IOException {
    checkNotNull(conf, "configuration");
    TransactionClientFactory factory = TransactionClientFactory.fromConfiguration(conf);
    Connection connection = ConnectionFactory.createConnection(conf);
    try {
      return new JobDatasets(connection, factory, SnapshotDatasets.using(connection, factory.create(conf)));
    } catch (RuntimeException e) {
      factory.close();
      connection.close();
      throw e;
    }
  }

  public Connection connection() {
    return connection;
  }

  public SnapshotDatasets datasets() {
    return datasets;
  }

  /**
   * @throws io.snapds.dataset.DatasetNotFoundException if the dataset does not exist
   */
  public SnapshotDataset open(DatasetId dataset) {
    return datasets.open(dataset);
  }

  @Override
  public void close() throws IOException {
    try {
      txFactory.close();
    } finally {
      connection.close();
    }
  }
}
