package io.snapds.dataset;

/**
 * The dataset's metadata is in an older format than this library reads. Nothing was changed.
 * Upgrade it in place (every snapshot, history entry, tag and run id is kept) and open it again.
 */
public class MetadataFormatException extends SnapshotDatasetException {
  private final DatasetId dataset;
  private final int found;
  private final int required;

  public MetadataFormatException(DatasetId dataset, int found, int required) {
    this(dataset, found, required, "this library");
  }

  /**
   * The dataset is readable at {@code found}, but {@code what} (for example "staging a snapshot")
   * needs format {@code required}.
   */
  public MetadataFormatException(DatasetId dataset, int found, int required, String what) {
    super("dataset " + dataset + " has metadata format " + found + ", " + what + " needs format " + required
        + ": run 'snapds upgrade " + dataset + "' (or CompositeDatasetAdmin.upgrade()) once, then open it again");
    this.dataset = dataset;
    this.found = found;
    this.required = required;
  }

  public DatasetId dataset() {
    return dataset;
  }

  public int found() {
    return found;
  }

  public int required() {
    return required;
  }
}
