package io.snapds.cli;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code DATASET@ID}: one snapshot of one dataset, as {@code publish} and {@code discard} take it
 * ({@code shop:prices@42}); {@code load --stage} prints it in this form.
 */
record StagedRef(DatasetId dataset, SnapshotId snapshot) {
  @Override
  public String toString() {
    return dataset + "@" + snapshot;
  }

  /**
   * Parses {@code namespace:name@id} (or {@code name@id}, in {@code default}).
   *
   * @throws IllegalArgumentException naming the argument and what is wrong with it
   */
  static StagedRef parse(String text) {
    int at = text.lastIndexOf('@');
    if (at < 0) {
      throw new IllegalArgumentException("invalid snapshot '" + text + "': expected DATASET@ID, such as shop:prices@42"
          + " (the id 'snapds load --stage' printed)");
    }
    String dataset = text.substring(0, at);
    String id = text.substring(at + 1);
    if (dataset.isEmpty() || id.isEmpty()) {
      throw new IllegalArgumentException("invalid snapshot '" + text + "': expected DATASET@ID, such as shop:prices@42"
          + (dataset.isEmpty() ? " (the dataset is missing)" : " (the snapshot id is missing)"));
    }
    try {
      return new StagedRef(DatasetId.parse(dataset), SnapshotId.parse(id));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid snapshot '" + text + "': " + e.getMessage(), e);
    }
  }

  static final class Converter implements ITypeConverter<StagedRef> {
    @Override
    public StagedRef convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
