package io.snapds.dataset;

import io.snapds.dataset.store.DataTable;
import java.util.List;
import java.util.Optional;

/** Reads one snapshot id through the data table. */
final class FixedSnapshotReader implements SnapshotReader {
  private final DataTable data;
  private final SnapshotId snapshot;

  FixedSnapshotReader(DataTable data, SnapshotId snapshot) {
    this.data = data;
    this.snapshot = snapshot;
  }

  @Override
  public SnapshotId snapshotId() {
    return snapshot;
  }

  @Override
  public Optional<SnapshotRow> get(byte[] key) {
    return get(key, RowScan.all());
  }

  @Override
  public Optional<SnapshotRow> get(byte[] key, RowScan projection) {
    return data.get(snapshot, key, projection);
  }

  @Override
  public List<Optional<SnapshotRow>> get(List<byte[]> keys) {
    return data.get(snapshot, keys, RowScan.all());
  }

  @Override
  public RowScanner scan(RowScan scan) {
    return data.scan(snapshot, scan);
  }

  @Override
  public String toString() {
    return "SnapshotReader{" + data.name() + " @ " + snapshot + "}";
  }
}
