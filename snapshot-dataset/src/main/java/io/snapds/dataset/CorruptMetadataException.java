package io.snapds.dataset;

/**
 * A metadata row could not be decoded. Nothing was changed; the row is named so that an operator
 * can inspect it. Do not retry: the same row will fail the same way.
 */
public class CorruptMetadataException extends SnapshotDatasetException {
  private final DatasetId dataset;
  private final String row;

  public CorruptMetadataException(DatasetId dataset, String row, String detail) {
    super("corrupt metadata in dataset " + dataset + ", row '" + row + "': " + detail);
    this.dataset = dataset;
    this.row = row;
  }

  public DatasetId dataset() {
    return dataset;
  }

  public String row() {
    return row;
  }
}
