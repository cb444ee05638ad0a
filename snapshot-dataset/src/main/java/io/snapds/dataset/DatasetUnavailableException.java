package io.snapds.dataset;

/**
 * The dataset exists but cannot be used now: one of its tables is disabled, HBase cannot be
 * reached, or a truncate is in progress (or was cut off). Nothing was changed by the failed call;
 * try again once the table is enabled, the cluster is back or the truncate has finished.
 */
public class DatasetUnavailableException extends StorageException {
  private final DatasetId dataset;
  private final String operation;

  public DatasetUnavailableException(DatasetId dataset, String operation, String reason, Throwable cause) {
    super(operation + " on dataset " + dataset + " failed: " + reason, cause);
    this.dataset = dataset;
    this.operation = operation;
  }

  /** The operation cannot run now for {@code reason}, with no underlying storage failure. */
  public DatasetUnavailableException(DatasetId dataset, String operation, String reason) {
    this(dataset, operation, reason, null);
  }

  public DatasetId dataset() {
    return dataset;
  }

  public String operation() {
    return operation;
  }
}
