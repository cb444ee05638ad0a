package io.snapds.cdap;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.tx.JobDatasets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at a plugin's dataset when the pipeline is deployed, so that its schema is checked (and
 * the source's output schema known) before a run. Only when the dataset and the connection
 * properties hold no macros and {@code zookeeperQuorum} names the cluster (the deploying process
 * need not have the runtime's hbase-site.xml); with short client timeouts, so that an unreachable
 * cluster costs the deploy seconds, not minutes. Anything that goes wrong means "not known now":
 * the checks then run in prepareRun.
 */
final class DatasetLookup {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetLookup.class);

  /** Over the plugin's own client defaults and the user's properties: fail within seconds. */
  static final Map<String, String> DEPLOY_TIME_CLIENT = Map.of(
      "hbase.client.retries.number", "1",
      "hbase.rpc.timeout", "5000",
      "hbase.client.operation.timeout", "10000",
      "hbase.client.meta.operation.timeout", "10000",
      "zookeeper.recovery.retry", "0",
      "snapds.tx.zookeeper.connect.timeout.ms", "5000");

  private static final List<String> CONNECTION_PROPERTIES = List.of(SnapshotDatasetConfig.DATASET,
      SnapshotDatasetConfig.NAMESPACE, SnapshotDatasetConfig.ZOOKEEPER_QUORUM, SnapshotDatasetConfig.ZOOKEEPER_PARENT,
      SnapshotDatasetConfig.HBASE_PROPERTIES, SnapshotDatasetConfig.TRANSACTION_SERVICE,
      SnapshotDatasetConfig.TRANSACTION_ZOOKEEPER_QUORUM);

  private DatasetLookup() {}

  /** The dataset's state, or empty when it cannot be looked at now (see the class comment). */
  static Optional<DatasetState> atDeploy(SnapshotDatasetConfig config) {
    if (CONNECTION_PROPERTIES.stream().anyMatch(config::containsMacro) || SnapshotDatasetConfig.isEmpty(
        config.zookeeperQuorum)) {
      return Optional.empty();
    }
    DatasetId id;
    ConnectionSettings settings;
    try {
      id = config.datasetId();
      settings = config.connectionSettings().overriddenBy(DEPLOY_TIME_CLIENT);
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // reported by the property checks
    }
    JobDatasets connection = null;
    try {
      connection = settings.open();
      return Optional.of(of(connection.datasets(), id));
    } catch (RuntimeException e) {
      LOG.info("Dataset {} could not be looked at while deploying ({}); its schema is checked when a run starts",
          id, e.toString());
      return Optional.empty();
    } finally {
      if (connection != null) {
        try {
          ConnectionSettings.close(connection);
        } catch (RuntimeException e) {
          LOG.debug("closing the deploy-time connection", e);
        }
      }
    }
  }

  /** The dataset's state now. */
  static DatasetState of(SnapshotDatasets datasets, DatasetId id) {
    return datasets.exists(id) ? DatasetState.of(datasets.open(id)) : DatasetState.missing();
  }
}
