package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Macro;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.plugin.PluginConfig;
import io.cdap.cdap.etl.api.FailureCollector;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * What every plugin of this artifact shares: the HBase cluster and the Tephra transaction service
 * it reaches. Every property takes macros; {@link #validateConnection} reports every bad value.
 */
public abstract class ConnectionConfig extends PluginConfig {
  public static final String ZOOKEEPER_QUORUM = "zookeeperQuorum";
  public static final String ZOOKEEPER_PARENT = "zookeeperParent";
  public static final String HBASE_PROPERTIES = "hbaseProperties";
  public static final String TRANSACTION_SERVICE = "transactionService";
  public static final String TRANSACTION_ZOOKEEPER_QUORUM = "transactionZookeeperQuorum";

  @Name(ZOOKEEPER_QUORUM)
  @Description("ZooKeeper quorum of the HBase cluster (host1:2181,host2:2181). Empty: the runtime's own HBase "
      + "configuration (hbase-site.xml on the classpath).")
  @Macro
  @Nullable
  String zookeeperQuorum;

  @Name(ZOOKEEPER_PARENT)
  @Description("Parent znode of the HBase cluster. Empty: from the HBase configuration (/hbase by default).")
  @Macro
  @Nullable
  String zookeeperParent;

  @Name(HBASE_PROPERTIES)
  @Description("More HBase client settings, as key=value pairs separated by commas.")
  @Macro
  @Nullable
  String hbaseProperties;

  @Name(TRANSACTION_SERVICE)
  @Description("The Tephra transaction service: 'zookeeper' (default) discovers it through ZooKeeper; "
      + "'in-process:<name>' uses a client registered in the same JVM (embedded deployments and tests).")
  @Macro
  @Nullable
  String transactionService;

  @Name(TRANSACTION_ZOOKEEPER_QUORUM)
  @Description("ZooKeeper quorum where the transaction service registers. Empty: the HBase quorum.")
  @Macro
  @Nullable
  String transactionZookeeperQuorum;

  /** How to reach HBase and the transaction service. */
  public ConnectionSettings connectionSettings() {
    return new ConnectionSettings(emptyToNull(zookeeperQuorum), emptyToNull(zookeeperParent),
        parseProperties(hbaseProperties), TransactionServiceSpec.parse(transactionService),
        emptyToNull(transactionZookeeperQuorum));
  }

  /**
   * Reports every problem of the connection properties to {@code collector}, each with the
   * property it concerns. Properties that hold macros are checked at runtime.
   */
  protected void validateConnection(FailureCollector collector) {
    if (!containsMacro(HBASE_PROPERTIES)) {
      try {
        parseProperties(hbaseProperties);
      } catch (IllegalArgumentException e) {
        collector.addFailure("Invalid HBase properties: " + e.getMessage(), "Write key=value pairs separated by commas.")
            .withConfigProperty(HBASE_PROPERTIES);
      }
    }
    if (!containsMacro(TRANSACTION_SERVICE)) {
      try {
        TransactionServiceSpec.parse(transactionService);
      } catch (IllegalArgumentException e) {
        collector.addFailure("Invalid transaction service: " + e.getMessage(),
            "Use 'zookeeper' or 'in-process:<name>'.").withConfigProperty(TRANSACTION_SERVICE);
      }
    }
  }

  static Map<String, String> parseProperties(@Nullable String text) {
    Map<String, String> out = new LinkedHashMap<>();
    if (isEmpty(text)) {
      return out;
    }
    for (String pair : text.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0 || pair.substring(0, eq).isBlank()) {
        throw new IllegalArgumentException("'" + pair.trim() + "' is not key=value");
      }
      out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return out;
  }

  static boolean isEmpty(@Nullable String s) {
    return s == null || s.isBlank();
  }

  @Nullable
  static String emptyToNull(@Nullable String s) {
    return isEmpty(s) ? null : s.trim();
  }
}
