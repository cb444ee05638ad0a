package io.snapds.dataset;

/**
 * The transaction service failed while committing a metadata change, so it may or may not have
 * been applied. Do not clean anything up on the strength of a failure: read the dataset's state
 * (for example {@code snapshot(id)}) to learn what happened.
 */
public class CommitStateUnknownException extends SnapshotDatasetException {
  private final DatasetId dataset;

  public CommitStateUnknownException(DatasetId dataset, String operation, Throwable cause) {
    super("outcome of " + operation + " on dataset " + dataset + " is unknown", cause);
    this.dataset = dataset;
  }

  public DatasetId dataset() {
    return dataset;
  }
}
