package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.StorageErrors;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.RawMetadata;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;

/**
 * Reads one {@link ReadSplit}: a range scan of the data table within the pinned snapshot's
 * prefix, giving each row's user key (prefix stripped) and the row. Needs only HBase: the snapshot
 * was resolved and pinned when the splits were planned. The MapReduce and Hive record readers
 * wrap it. Uses the caller's connection and does not close it.
 *
 * <p>At the end of the split it checks that cleanup has not begun deleting the snapshot (which
 * happens only if the reader pin lapsed), and that the metadata still has the snapshot with the
 * split's key number (one {@code Get}): a task never ends with a split cut short, nor with rows of
 * another incarnation of the dataset.
 */
public final class SplitReader implements Closeable {
  private final Connection connection;
  private final ReadSplit split;
  private final SnapshotKeys keys;
  private final String whenPinLapsed;
  private final Table table;
  private final ResultScanner scanner;
  private byte[] key;
  private SnapshotRow row;
  private boolean done;

  private SplitReader(Connection connection, ReadSplit split, String whenPinLapsed, Table table,
      ResultScanner scanner) {
    this.connection = connection;
    this.split = split;
    this.keys = split.keys();
    this.whenPinLapsed = whenPinLapsed;
    this.table = table;
    this.scanner = scanner;
  }

  /**
   * @param projection the columns and caching to scan with; its key range is the split's
   * @param firstCellOnly fetch one cell per row (for a reader that needs the keys only)
   * @param whenPinLapsed what the {@link SnapshotCleanedException} tells the user to do, should the
   *     pin lapse and cleanup begin while the split is read
   */
  public static SplitReader open(Connection connection, ReadSplit split, RowScan projection, boolean firstCellOnly,
      String whenPinLapsed) throws IOException {
    checkNotNull(split, "split must not be null");
    Scan scan = DataTable.toHBaseScan(split.keys(), projection)
        .withStartRow(split.startRow()).withStopRow(split.stopRow()).setCacheBlocks(false);
    if (firstCellOnly) {
      scan.setFilter(new FirstKeyOnlyFilter());
    }
    Table table = connection.getTable(split.dataset().dataTable());
    try {
      return new SplitReader(connection, split, whenPinLapsed, table, table.getScanner(scan));
    } catch (IOException | java.io.UncheckedIOException e) {
      table.close();
      throw typed(split, e);
    } catch (RuntimeException e) {
      table.close();
      throw e;
    }
  }

  /**
   * The typed error for a failure of the data table (storage failures only: a bug of ours stays
   * what it is): a table dropped (and perhaps created again)
   * since the split was planned is {@code DatasetNotFoundException}, a disabled one
   * {@code DatasetUnavailableException}, each naming the dataset and the split's snapshot, rather
   * than HBase's table exception.
   */
  private static RuntimeException typed(ReadSplit split, Exception e) {
    return StorageErrors.translate(split.dataset(), "read a split of snapshot " + split.snapshotId(), e);
  }

  /**
   * Moves to the next row; false at the end of the split.
   *
   * @throws SnapshotCleanedException at the end of the split if cleanup began deleting the snapshot
   * @throws SnapshotNotAvailableException at the end of the split if the metadata no longer has the
   *     snapshot with the split's key number (the dataset was truncated, or dropped and created again)
   */
  public boolean next() throws IOException {
    Result r;
    try {
      r = done ? null : scanner.next();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw typed(split, e);
    }
    if (r == null) {
      if (!done) {
        done = true;
        checkTheSnapshotHeld();
      }
      return false;
    }
    row = DataTable.toRow(keys, r);
    key = null; // copied out of the row's first cell only if asked for (a count never asks)
    return true;
  }

  /**
   * The check at the end of the split, one round trip to the lock table and one {@code Get} of the
   * snapshot's record, raw: cleanup has not begun deleting the snapshot (its mark; or, for a
   * snapshot at or below the lock table's watermark, whose mark may have gone with its record at the
   * history horizon, the record itself), and the metadata still has the snapshot with the split's
   * key number (a split of an earlier incarnation, planned before a truncate or a drop and create,
   * names a snapshot the metadata no longer has: its range holds none of its rows, or another
   * incarnation's, and the marks went with the lock table).
   */
  private void checkTheSnapshotHeld() {
    LockTable.CleaningState state = new LockTable(connection, split.dataset().lockTable(), Clock.systemUTC())
        .cleaningState(split.snapshotId());
    RawMetadata.RawRecord record = RawMetadata.record(connection, split.dataset(), split.snapshotId());
    if (state.marked() || state.coveredByWatermark(split.snapshotId()) && record.goneOrCleaned()) {
      throw SnapshotCleanedException.whileReading(split.dataset(), split.snapshotId(), whenPinLapsed);
    }
    java.util.Optional<Long> recorded = record.keyNumber();
    if (recorded.isEmpty() || recorded.get() != keys.number()) {
      throw new SnapshotNotAvailableException(split.dataset(), "snapshot " + split.snapshotId() + " (key prefix "
          + org.apache.hadoop.hbase.util.Bytes.toStringBinary(keys.prefix()) + ") of dataset " + split.dataset()
          + (recorded.isEmpty() ? " no longer exists" : " now has key number " + recorded.get())
          + ": the dataset was truncated, or dropped and created again, after this split was planned; the rows "
          + "read must not be used: plan the splits again");
    }
  }

  /** The current row's user key (without the snapshot prefix). */
  public byte[] key() {
    checkState(row != null, "no current row: call next() first");
    if (key == null) {
      key = row.key();
    }
    return key;
  }

  /** The current row. */
  public SnapshotRow row() {
    checkState(row != null, "no current row: call next() first");
    return row;
  }

  public ReadSplit split() {
    return split;
  }

  /** Whether the split's rows ran out. */
  public boolean isDone() {
    return done;
  }

  @Override
  public void close() throws IOException {
    try {
      scanner.close();
    } finally {
      table.close();
    }
  }
}
