package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Macro;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.plugin.PluginConfig;
import io.cdap.cdap.etl.api.FailureCollector;
import io.snapds.dataset.DatasetId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * What the sink and the source share: which dataset, the HBase cluster it lives on, and the
 * Tephra transaction service. Every property takes macros. Getters return the defaults for
 * unset properties; {@link #validateDataset} reports every bad value at once.
 */
public abstract class SnapshotDatasetConfig extends PluginConfig {
  public static final String REFERENCE_NAME = "referenceName";
  public static final String DATASET = "dataset";
  public static final String NAMESPACE = "namespace";
  public static final String COLUMN_FAMILY = "columnFamily";
  public static final String ZOOKEEPER_QUORUM = "zookeeperQuorum";
  public static final String ZOOKEEPER_PARENT = "zookeeperParent";
  public static final String HBASE_PROPERTIES = "hbaseProperties";
  public static final String TRANSACTION_SERVICE = "transactionService";
  public static final String TRANSACTION_ZOOKEEPER_QUORUM = "transactionZookeeperQuorum";

  static final String DEFAULT_NAMESPACE = "default";
  static final String DEFAULT_FAMILY = "d";
  private static final Pattern FAMILY = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");

  @Name(REFERENCE_NAME)
  @Description("Name used to identify this dataset in lineage. Defaults to the dataset name.")
  @Nullable
  String referenceName;

  @Name(DATASET)
  @Description("Name of the snapshot dataset (its HBase tables are <namespace>:<dataset>.data, .meta and .lock).")
  @Macro
  String dataset;

  @Name(NAMESPACE)
  @Description("HBase namespace of the dataset. Defaults to 'default'.")
  @Macro
  @Nullable
  String namespace;

  @Name(COLUMN_FAMILY)
  @Description("Column family that holds the record's fields, one column per field. Defaults to 'd'.")
  @Macro
  @Nullable
  String columnFamily;

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

  public String referenceName() {
    return isEmpty(referenceName) ? dataset : referenceName;
  }

  public String namespace() {
    return isEmpty(namespace) ? DEFAULT_NAMESPACE : namespace.trim();
  }

  public String columnFamily() {
    return isEmpty(columnFamily) ? DEFAULT_FAMILY : columnFamily.trim();
  }

  /** @throws IllegalArgumentException naming the bad value */
  public DatasetId datasetId() {
    return DatasetId.of(namespace(), dataset == null ? null : dataset.trim());
  }

  /** How to reach HBase and the transaction service. */
  public ConnectionSettings connectionSettings() {
    return new ConnectionSettings(emptyToNull(zookeeperQuorum), emptyToNull(zookeeperParent),
        parseProperties(hbaseProperties), TransactionServiceSpec.parse(transactionService),
        emptyToNull(transactionZookeeperQuorum));
  }

  /**
   * Reports every problem of the dataset and connection properties to {@code collector}, each
   * with the property it concerns. Properties that hold macros are checked at runtime.
   */
  protected void validateDataset(FailureCollector collector) {
    if (!containsMacro(DATASET) && !containsMacro(NAMESPACE)) {
      if (isEmpty(dataset)) {
        collector.addFailure("Dataset name is required.", "Set the 'dataset' property.")
            .withConfigProperty(DATASET);
      } else {
        try {
          datasetId();
        } catch (IllegalArgumentException e) {
          collector.addFailure("Invalid dataset '" + dataset + "' in namespace '" + namespace() + "': "
              + e.getMessage(), "Use letters, digits, '_' and '-' for the dataset, and letters, digits and '_' for the namespace.")
              .withConfigProperty(DATASET).withConfigProperty(NAMESPACE);
        }
      }
    }
    if (!containsMacro(COLUMN_FAMILY) && !FAMILY.matcher(columnFamily()).matches()) {
      collector.addFailure("Invalid column family '" + columnFamily + "'.",
          "Use 1-64 letters, digits, '_', '.' or '-'.").withConfigProperty(COLUMN_FAMILY);
    }
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
