package io.snapds.dataset;

/**
 * The dataset exists but cannot be used now: one of its tables is disabled, or HBase cannot be
 * reached. Nothing was changed by the failed call; try again once the table is enabled or the
 * cluster is back.
 */
public class DatasetUnavailableException extends StorageException {
  private final DatasetId dataset;
  private final String operation;

  public DatasetUnavailableException(DatasetId dataset, String operation, String reason, Throwable cause) {
    super(operation + " on dataset " + dataset + " failed: " + reason, cause);
    this.dataset = dataset;
    this.operation = operation;
  }

  public DatasetId dataset() {
    return dataset;
  }

  public String operation() {
    return operation;
  }
}
