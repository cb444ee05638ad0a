package io.snapds.dataset;

/** A dataset of that name exists already (some or all of its tables). */
public class DatasetAlreadyExistsException extends SnapshotDatasetException {
  private final DatasetId dataset;

  public DatasetAlreadyExistsException(DatasetId dataset) {
    super("dataset " + dataset + " already exists");
    this.dataset = dataset;
  }

  public DatasetId dataset() {
    return dataset;
  }
}
