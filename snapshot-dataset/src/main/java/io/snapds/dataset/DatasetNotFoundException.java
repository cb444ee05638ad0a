package io.snapds.dataset;

/** The dataset, or one of its three tables, does not exist. Create it first, or fix the name. */
public class DatasetNotFoundException extends SnapshotDatasetException {
  private final DatasetId dataset;

  public DatasetNotFoundException(DatasetId dataset, String detail) {
    super("dataset " + dataset + " not found" + (detail.isEmpty() ? "" : ": " + detail));
    this.dataset = dataset;
  }

  public DatasetNotFoundException(DatasetId dataset, String detail, Throwable cause) {
    super("dataset " + dataset + " not found" + (detail.isEmpty() ? "" : ": " + detail), cause);
    this.dataset = dataset;
  }

  public DatasetId dataset() {
    return dataset;
  }
}
