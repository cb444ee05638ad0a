package io.snapds.dataset;

/**
 * The snapshot being read was cleaned (its rows deleted) while the reader still used it, so what
 * the reader got may be incomplete: it must not use it. It happens only when nothing kept the
 * snapshot for the reader: a Tephra transaction that outlived its timeout (Tephra invalidates
 * it, and cleanup does not wait for invalid transactions), a read outside any transaction, or a
 * {@link ReaderPin} that lapsed. The message says which, and what to use instead: a longer
 * transaction timeout, or a reader pin renewed while reading.
 */
public final class SnapshotCleanedException extends SnapshotNotAvailableException {
  SnapshotCleanedException(DatasetId dataset, SnapshotId snapshot, String reason) {
    super(dataset, snapshot, SnapshotState.EXPIRED, "snapshot " + snapshot + " of dataset " + dataset
        + " was cleaned while it was being read, so the rows read may be incomplete: " + reason);
  }

  /** For readers outside this package (MapReduce tasks). */
  public static SnapshotCleanedException whileReading(DatasetId dataset, SnapshotId snapshot, String reason) {
    return new SnapshotCleanedException(dataset, snapshot, reason);
  }
}
