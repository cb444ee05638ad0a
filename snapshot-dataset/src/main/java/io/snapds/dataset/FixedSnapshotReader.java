package io.snapds.dataset;

import io.snapds.dataset.store.DataTable;
import java.util.List;
import java.util.Optional;

/**
 * Reads one snapshot id through the data table. A read that could have missed deleted rows (a
 * scan, a get that found nothing) checks, after it has read, that cleanup has not begun deleting
 * the snapshot ({@link CleanedCheck}), and fails with {@link SnapshotCleanedException} instead.
 */
final class FixedSnapshotReader implements SnapshotReader {
  private final DataTable data;
  private final SnapshotKeys range;
  private final CleanedCheck cleaned;

  FixedSnapshotReader(DataTable data, SnapshotKeys keys, CleanedCheck cleaned) {
    this.data = data;
    this.range = keys;
    this.cleaned = cleaned;
  }

  @Override
  public SnapshotId snapshotId() {
    return range.id();
  }

  @Override
  public Optional<SnapshotRow> get(byte[] key) {
    return get(key, RowScan.all());
  }

  /**
   * A row found is returned without the check: cleanup deletes a row with one {@code Delete},
   * which HBase applies to the row atomically, and a get reads one consistent version of a row,
   * so a row found is whole and right whatever cleanup does. Only a miss may be a row deleted
   * under the reader, so only a miss pays the lock-table read.
   */
  @Override
  public Optional<SnapshotRow> get(byte[] key, RowScan projection) {
    Optional<SnapshotRow> row = data.get(range, key, projection);
    if (row.isEmpty()) {
      cleaned.verify();
    }
    return row;
  }

  /** As for a single get: the check runs only if some key was not found. */
  @Override
  public List<Optional<SnapshotRow>> get(List<byte[]> keys) {
    List<Optional<SnapshotRow>> rows = data.get(range, keys, RowScan.all());
    if (rows.stream().anyMatch(Optional::isEmpty)) {
      cleaned.verify();
    }
    return rows;
  }

  @Override
  public RowScanner scan(RowScan scan) {
    return data.scan(range, scan, cleaned::verify); // checked once, when the rows run out or on close
  }

  @Override
  public String toString() {
    return "SnapshotReader{" + data.name() + " @ " + range + "}";
  }
}
