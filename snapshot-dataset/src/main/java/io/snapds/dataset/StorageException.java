package io.snapds.dataset;

import java.io.IOException;

/** HBase or the transaction service failed underneath an operation; the operation did not finish. */
public class StorageException extends SnapshotDatasetException {
  public StorageException(String message, IOException cause) {
    super(message + ": " + cause.getMessage(), cause);
  }

  public StorageException(String message, Throwable cause) {
    super(cause == null ? message : message + ": " + cause.getMessage(), cause);
  }
}
