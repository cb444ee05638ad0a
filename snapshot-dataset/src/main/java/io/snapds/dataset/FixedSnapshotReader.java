package io.snapds.dataset;

import io.snapds.dataset.store.DataTable;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
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
    return new CheckedScanner(data.scan(range, scan), cleaned);
  }

  @Override
  public String toString() {
    return "SnapshotReader{" + data.name() + " @ " + range + "}";
  }

  /** Checks once, when the rows run out (or when closed before that). */
  private static final class CheckedScanner implements RowScanner {
    private final RowScanner scanner;
    private final CleanedCheck cleaned;
    private boolean checked;

    CheckedScanner(RowScanner scanner, CleanedCheck cleaned) {
      this.scanner = scanner;
      this.cleaned = cleaned;
    }

    private void check() {
      if (!checked) {
        checked = true;
        cleaned.verify();
      }
    }

    @Override
    public Iterator<SnapshotRow> iterator() {
      Iterator<SnapshotRow> rows = scanner.iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          if (rows.hasNext()) {
            return true;
          }
          check();
          return false;
        }

        @Override
        public SnapshotRow next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return rows.next();
        }
      };
    }

    @Override
    public void close() {
      try {
        check();
      } finally {
        scanner.close();
      }
    }
  }
}
