package io.snapds.dataset;

import java.util.List;
import java.util.Optional;

/**
 * Reads one snapshot, fixed for the life of this reader: every call reads the same snapshot id,
 * whatever is published meanwhile.
 *
 * <p>Rows of a snapshot that expires while it is read stay in place as long as the reader is
 * protected: inside a Tephra transaction that the dataset takes part in, or under a
 * {@link ReaderPin}. An unprotected reader of an expired snapshot may find rows gone.
 */
public interface SnapshotReader {
  /** The snapshot every call of this reader reads. */
  SnapshotId snapshotId();

  /**
   * One row, all columns.
   *
   * @throws IllegalArgumentException if the key is null, empty or longer than the dataset allows
   */
  Optional<SnapshotRow> get(byte[] key);

  /** One row, only the columns of {@code projection} (its key range and limit are ignored). */
  Optional<SnapshotRow> get(byte[] key, RowScan projection);

  /** Several rows in one round trip; the result is aligned with {@code keys}. */
  List<Optional<SnapshotRow>> get(List<byte[]> keys);

  /** The rows {@code scan} selects, in key order. Close the scanner when done. */
  RowScanner scan(RowScan scan);
}
