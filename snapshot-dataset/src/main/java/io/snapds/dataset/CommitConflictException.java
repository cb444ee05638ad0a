package io.snapds.dataset;

/**
 * A metadata change lost a race with another change to the same dataset, more often than the
 * retry policy allows. Nothing was changed. Try again later.
 */
public class CommitConflictException extends SnapshotDatasetException {
  private final DatasetId dataset;

  public CommitConflictException(DatasetId dataset, String operation, Throwable cause) {
    super(operation + " on dataset " + dataset + " conflicted with a concurrent change", cause);
    this.dataset = dataset;
  }

  public DatasetId dataset() {
    return dataset;
  }
}
