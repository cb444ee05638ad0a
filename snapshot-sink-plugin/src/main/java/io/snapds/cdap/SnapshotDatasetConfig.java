package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Macro;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.etl.api.FailureCollector;
import io.snapds.dataset.DatasetId;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * What the sink and the source share: which dataset, and ({@link ConnectionConfig}) the HBase
 * cluster it lives on and the Tephra transaction service. Every property takes macros. Getters
 * return the defaults for unset properties; {@link #validateDataset} reports every bad value at once.
 */
public abstract class SnapshotDatasetConfig extends ConnectionConfig {
  public static final String REFERENCE_NAME = "referenceName";
  public static final String DATASET = "dataset";
  public static final String NAMESPACE = "namespace";
  public static final String COLUMN_FAMILY = "columnFamily";

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
    validateConnection(collector);
  }
}
