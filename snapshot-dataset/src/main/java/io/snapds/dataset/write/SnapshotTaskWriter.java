package io.snapds.dataset.write;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotRowWriter;
import io.snapds.dataset.SnapshotWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The task side of the distributed write, for every engine whose driver can hand its tasks a
 * {@link SnapshotHandle} (MapReduce and CDAP now; Hive's tasks still look their snapshot up by
 * run id, docs/design.md "Left open"): the driver begins the snapshot and puts the handle into the
 * job's configuration; each task opens this writer on it, writes its rows, and closes it; the
 * driver publishes at the job's end ({@link SnapshotWriter#countStoredRows()}), so the published
 * counts are the rows a reader gets, whatever tasks wrote twice or lost in a failed attempt.
 * Before its first batch's check, the attempt records itself in the lock table, and on a clean
 * close what it stored (if its counts are exact): the publish sums those records when they say what
 * the snapshot stores and counts the stored rows otherwise (docs/design.md "One write protocol").
 * The task's own counts ({@link #rowsSent()}, {@link #bytesSent()}) are what it sent, for the
 * engine's counters and logs.
 *
 * <p>An attempt can outlive its job: a speculative attempt that lost, or one that was killed but
 * whose process still runs. A published snapshot must not change, so rows are held in a batch of
 * at most the write buffer's size and, before a batch is sent, the snapshot's state is read afresh
 * ({@link SnapshotDataset#requireBuilding}): once the job has published (or aborted) nothing more
 * is sent and the writer fails with {@link SnapshotNotAvailableException}. This narrows the race
 * to a batch checked before the publish and arriving after it (docs/design.md "Left open").
 *
 * <p>Cost per task: one metadata read to open, one per batch sent (per write buffer, 4 MiB by
 * default), two lock table puts if it sends anything; none grows with the dataset's history.
 */
@InterfaceAudience.Private
public final class SnapshotTaskWriter implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SnapshotTaskWriter.class);
  /** What a cell costs in the batch beyond its bytes (a rough heap size, to bound the batch). */
  private static final int CELL_OVERHEAD = 64;

  private final SnapshotDataset dataset;
  private final SnapshotRowWriter rows;
  private final long batchLimit;
  /** Rows to send: {@link SnapshotRow}s and {@link CellsRow}s, in the order they were put. */
  private final List<Object> batch = new ArrayList<>();
  private long batchBytes;
  private long rowsSent;
  private long bytesSent;

  private SnapshotTaskWriter(SnapshotDataset dataset, SnapshotRowWriter rows, long batchLimit) {
    this.dataset = dataset;
    this.rows = rows;
    this.batchLimit = batchLimit;
  }

  /**
   * Opens a task's writer into the snapshot {@code handle} names, which must be BUILDING.
   *
   * @throws SnapshotNotAvailableException if the snapshot is not BUILDING (published or aborted)
   * @throws IllegalArgumentException if {@code writeBufferBytes} is not positive
   */
  public static SnapshotTaskWriter open(SnapshotDataset dataset, SnapshotHandle handle, long writeBufferBytes) {
    checkNotNull(handle, "snapshot handle must not be null");
    return open(dataset, handle.snapshotId(), writeBufferBytes);
  }

  /**
   * Opens a task's writer into {@code snapshot}, which must be BUILDING: for an engine whose tasks
   * find their snapshot themselves ({@link SnapshotDataset#buildingForRun}) instead of receiving the
   * handle.
   *
   * @throws SnapshotNotAvailableException if the snapshot is not BUILDING (published or aborted)
   * @throws IllegalArgumentException if {@code writeBufferBytes} is not positive
   */
  public static SnapshotTaskWriter open(SnapshotDataset dataset, SnapshotId snapshot, long writeBufferBytes) {
    checkNotNull(dataset, "dataset must not be null");
    checkNotNull(snapshot, "snapshot must not be null");
    checkArgument(writeBufferBytes > 0, "write buffer must be > 0 bytes, got %s", writeBufferBytes);
    return new SnapshotTaskWriter(dataset, dataset.openRowWriter(snapshot, writeBufferBytes), writeBufferBytes);
  }

  public SnapshotId snapshotId() {
    return rows.snapshotId();
  }

  /** Adds a row to the batch, sending the batch when it reaches the write buffer's size. */
  public void put(SnapshotRow row) {
    checkNotNull(row, "row must not be null");
    long size = row.key().length;
    for (var cells : row.families().values()) {
      for (var cell : cells.entrySet()) {
        size += CELL_OVERHEAD + cell.getKey().length + cell.getValue().length;
      }
    }
    add(row, size); // immutable: safe to hold until the batch is sent
  }

  /** Holds a row of {@code size} bytes in the batch, sending the batch when it reaches the write buffer's size. */
  private void add(Object row, long size) {
    batch.add(row);
    batchBytes += size;
    if (batchBytes >= batchLimit) {
      flush();
    }
  }

  /**
   * Adds a row given as its key and its cells in one family, for an engine that encodes rows
   * itself ({@code schema.RowEncoder}) and so builds no {@link SnapshotRow}: the same batch and
   * checks as {@link #put(SnapshotRow)}. The arrays are held until the batch is sent, not copied:
   * the caller must not change them.
   *
   * @throws IllegalArgumentException if the arrays differ in length, are empty, or a cell is null
   */
  public void put(byte[] key, String family, byte[][] qualifiers, byte[][] values) {
    checkNotNull(key, "key must not be null");
    checkArgument(qualifiers.length == values.length, "%s qualifiers for %s values", qualifiers.length,
        values.length);
    if (qualifiers.length == 0) { // the message only on failure: this runs once per row
      throw new IllegalArgumentException("row " + Bytes.toStringBinary(key)
          + " has no cell (a row without cells is not stored)");
    }
    long size = key.length;
    for (int i = 0; i < qualifiers.length; i++) {
      if (qualifiers[i] == null || values[i] == null) {
        throw new IllegalArgumentException("cell " + i + " of row " + Bytes.toStringBinary(key)
            + " has a null qualifier or value");
      }
      size += CELL_OVERHEAD + qualifiers[i].length + values[i].length;
    }
    add(new CellsRow(key, family, qualifiers, values), size);
  }

  /** A row {@link #put(byte[], String, byte[][], byte[][])} added. */
  private record CellsRow(byte[] key, String family, byte[][] qualifiers, byte[][] values) {}

  /**
   * Sends the batch if the snapshot is still BUILDING.
   *
   * @throws SnapshotNotAvailableException sending nothing, if it is not (the job published or aborted)
   */
  public void flush() {
    if (batch.isEmpty()) {
      return;
    }
    rows.recordAttempt(); // before the check: a publish that reads the records after it knows of this attempt
    try {
      dataset.requireBuilding(rows.snapshotId());
    } catch (SnapshotNotAvailableException e) {
      forgetRecord(); // a close after this checks again and fails again, as engines expect of an attempt that outlived its job
      throw e;
    }
    long before = rows.byteCount();
    for (Object row : batch) {
      if (row instanceof SnapshotRow r) {
        rows.put(r);
      } else {
        CellsRow c = (CellsRow) row;
        for (int i = 0; i < c.qualifiers.length; i++) {
          rows.put(c.key, c.family, c.qualifiers[i], c.values[i]);
        }
      }
    }
    rows.flush();
    rowsSent += batch.size();
    bytesSent += rows.byteCount() - before;
    batch.clear();
    batchBytes = 0;
  }

  /** Removes this attempt's record, best effort: its build has ended, cleanup removes what is left. */
  private void forgetRecord() {
    try {
      rows.forgetAttempt();
    } catch (RuntimeException e) {
      LOG.debug("attempt record of snapshot {} left for cleanup: {}", rows.snapshotId(), e.toString());
    }
  }

  /** Rows this task sent (a row put twice counts twice). */
  public long rowsSent() {
    return rowsSent;
  }

  /** Key and value bytes this task sent. */
  public long bytesSent() {
    return bytesSent;
  }

  /** Closes without sending the batch: for a task that failed. */
  public void discard() {
    batch.clear();
    rows.close();
  }

  /** Sends the rest of the batch (see {@link #flush()}) and closes. */
  @Override
  public void close() {
    try {
      flush();
    } finally {
      rows.close();
    }
  }
}
