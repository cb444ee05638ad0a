package io.snapds.dataset;

/**
 * Tephra's transaction service failed or could not be reached while an operation needed it.
 * Before the operation reached its commit, nothing was changed; a failure during a metadata commit
 * itself is reported as {@link CommitStateUnknownException} instead. Retry once the service is
 * back.
 */
public class TransactionServiceUnavailableException extends DatasetUnavailableException {
  public TransactionServiceUnavailableException(DatasetId dataset, String operation, Throwable cause) {
    super(dataset, operation, "the transaction service is unavailable", cause);
  }
}
