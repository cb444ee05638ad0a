package io.snapds.cli.load;

import io.snapds.dataset.SnapshotWriter;

/**
 * How an input record becomes a row of the snapshot: {@link RowMapping} for a schema-less dataset
 * (text cells), {@link SchemaMapping} for a dataset with a schema (typed cells).
 */
public interface RecordMapping {
  /**
   * Writes the row of one record.
   *
   * @throws BadInputException naming the record's line and what is wrong with it
   */
  void write(InputRecord record, SnapshotWriter writer) throws BadInputException;

  /** Whether the file's empty unquoted CSV fields are nulls (a quoted {@code ""} is then the empty string). */
  default boolean emptyIsNull() {
    return false;
  }
}
