package io.snapds.cdap;

import io.snapds.dataset.security.KeytabLogin;
import io.snapds.dataset.StorageException;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;

/**
 * How a plugin reaches HBase and the Tephra transaction service: overrides of the runtime's
 * HBase configuration and where the transaction service is. Immutable.
 */
public final class ConnectionSettings {
  /**
   * HBase client settings the plugin applies under the user's {@code hbaseProperties} (which win):
   * HBase's own defaults retry for minutes and let one operation take 20 minutes, so an
   * unreachable or misconfigured cluster would hold a pipeline run in prepareRun with nothing in
   * its log. With these, a connection problem fails the run within about a minute, naming the
   * quorum; a region move or a short server restart is still ridden out (7 retries back off for
   * about 16 s in all).
   */
  static final Map<String, String> CLIENT_DEFAULTS = Map.of(
      "hbase.client.retries.number", "7",
      "hbase.client.pause", "200",
      "hbase.rpc.timeout", "15000",
      "hbase.client.operation.timeout", "45000",
      "hbase.client.meta.operation.timeout", "45000",
      "zookeeper.recovery.retry", "3",
      "zookeeper.recovery.retry.intervalmill", "1000");

  /** Where Tephra's ZooKeeper discovery looks for the service (Tephra's own key; default the HBase quorum). */
  static final String TX_ZOOKEEPER_QUORUM = "data.tx.zookeeper.quorum";

  @Nullable
  private final String zookeeperQuorum;
  @Nullable
  private final String zookeeperParent;
  private final Map<String, String> hbaseProperties;
  private final TransactionServiceSpec transactionService;
  @Nullable
  private final String transactionZookeeperQuorum;

  ConnectionSettings(@Nullable String zookeeperQuorum, @Nullable String zookeeperParent,
      Map<String, String> hbaseProperties, TransactionServiceSpec transactionService,
      @Nullable String transactionZookeeperQuorum) {
    this.zookeeperQuorum = zookeeperQuorum;
    this.zookeeperParent = zookeeperParent;
    this.hbaseProperties = Map.copyOf(hbaseProperties);
    this.transactionService = transactionService;
    this.transactionZookeeperQuorum = transactionZookeeperQuorum;
  }

  /** These settings with {@code overrides} over the HBase properties (the overrides win). */
  ConnectionSettings overriddenBy(Map<String, String> overrides) {
    Map<String, String> merged = new LinkedHashMap<>(hbaseProperties);
    merged.putAll(overrides);
    return new ConnectionSettings(zookeeperQuorum, zookeeperParent, merged, transactionService,
        transactionZookeeperQuorum);
  }

  public TransactionServiceSpec transactionService() {
    return transactionService;
  }

  /**
   * The settings as Hadoop configuration entries: merged into a MapReduce job's configuration
   * they make its tasks reach the same HBase cluster and transaction service, with the same
   * bounded retries ({@link #CLIENT_DEFAULTS} under the user's properties).
   */
  public Map<String, String> asConfiguration() {
    Map<String, String> out = new LinkedHashMap<>(CLIENT_DEFAULTS);
    out.putAll(hbaseProperties);
    if (zookeeperQuorum != null) {
      String[] hostsAndPort = zookeeperQuorum.split(",");
      // host:port,host:port -> HBase's quorum and client port keys
      StringBuilder hosts = new StringBuilder();
      String port = null;
      for (String hp : hostsAndPort) {
        String h = hp.trim();
        int colon = h.lastIndexOf(':');
        if (colon > 0) {
          port = h.substring(colon + 1);
          h = h.substring(0, colon);
        }
        hosts.append(hosts.length() == 0 ? "" : ",").append(h);
      }
      out.put(HConstants.ZOOKEEPER_QUORUM, hosts.toString());
      if (port != null) {
        out.put(HConstants.ZOOKEEPER_CLIENT_PORT, port);
      }
    }
    if (zookeeperParent != null) {
      out.put(HConstants.ZOOKEEPER_ZNODE_PARENT, zookeeperParent);
    }
    // Tephra's own fallback is hbase.zookeeper.quorum without the client port (so port 2181):
    // give it the quorum as the user wrote it, ports included
    String txQuorum = transactionZookeeperQuorum != null ? transactionZookeeperQuorum : zookeeperQuorum;
    if (txQuorum != null) {
      out.put(TX_ZOOKEEPER_QUORUM, txQuorum);
    }
    if (transactionService.inProcess()) {
      out.put(JobDatasets.TX_CLIENT_FACTORY, InProcessTransactionClientFactory.class.getName());
      out.put(PluginConfKeys.IN_PROCESS_TX_NAME, transactionService.inProcessName());
    }
    return out;
  }

  /** The runtime's HBase configuration ({@code base}, or hbase-site.xml) with these settings over it. */
  public Configuration hbaseConfiguration(@Nullable Configuration base) {
    Configuration conf = HBaseConfiguration.create(base == null ? new Configuration() : base);
    asConfiguration().forEach(conf::set);
    return conf;
  }

  /**
   * Connects to HBase and the transaction service (for the driver side of a run: prepareRun and
   * onRunFinish); the tasks connect through the same settings in their job configuration.
   *
   * @throws StorageException if HBase cannot be reached
   * @throws IllegalStateException if the transaction service cannot be reached, or an
   *     in-process client is not registered
   */
  public JobDatasets open() {
    Configuration conf = hbaseConfiguration(null);
    // snapds.kerberos.principal/keytab among the HBase properties: the driver logs in; tasks use tokens
    KeytabLogin.loginIfConfigured(conf);
    try {
      return JobDatasets.open(conf);
    } catch (IOException e) {
      throw new StorageException("connecting to HBase at " + conf.get(HConstants.ZOOKEEPER_QUORUM), e);
    }
  }

  /** Closes what {@link #open()} opened. */
  static void close(JobDatasets datasets) {
    try {
      datasets.close();
    } catch (IOException e) {
      throw new StorageException("closing the HBase connection", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ConnectionSettings s && Objects.equals(zookeeperQuorum, s.zookeeperQuorum)
        && Objects.equals(zookeeperParent, s.zookeeperParent) && hbaseProperties.equals(s.hbaseProperties)
        && transactionService.equals(s.transactionService)
        && Objects.equals(transactionZookeeperQuorum, s.transactionZookeeperQuorum);
  }

  @Override
  public int hashCode() {
    return Objects.hash(zookeeperQuorum, zookeeperParent, hbaseProperties, transactionService,
        transactionZookeeperQuorum);
  }

  @Override
  public String toString() {
    return "ConnectionSettings{zookeeper=" + zookeeperQuorum + ", parent=" + zookeeperParent
        + ", hbase=" + hbaseProperties + ", tx=" + transactionService + ", txZookeeper=" + transactionZookeeperQuorum + "}";
  }
}
