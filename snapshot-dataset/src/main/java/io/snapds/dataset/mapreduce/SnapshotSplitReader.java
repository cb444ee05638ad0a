package io.snapds.dataset.mapreduce;

import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.RowKeys;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Reads one {@link SnapshotSplit}: a range scan of the data table within the pinned snapshot's
 * prefix. Gives the user's row key (prefix stripped) and the row. Needs only HBase: the snapshot
 * was resolved and pinned when the splits were computed. Both API adapters wrap it.
 *
 * <p>At the end of the split it checks that cleanup has not begun deleting the snapshot (which
 * happens only if the job's reader pin lapsed): a task never ends with a split cut short.
 */
@InterfaceAudience.Private
public final class SnapshotSplitReader implements Closeable {
  private final Connection connection;
  private final SnapshotSplit split;
  private final Table table;
  private final ResultScanner scanner;
  private final ImmutableBytesWritable key = new ImmutableBytesWritable();
  private final SnapshotRowWritable value = new SnapshotRowWritable();
  private boolean done;

  private SnapshotSplitReader(Connection connection, SnapshotSplit split, Table table, ResultScanner scanner) {
    this.connection = connection;
    this.split = split;
    this.table = table;
    this.scanner = scanner;
  }

  public static SnapshotSplitReader open(SnapshotSplit split, Configuration conf) throws IOException {
    Scan scan = DataTable.toHBaseScan(split.snapshotId(), SnapshotInputFormatImpl.rowScan(conf))
        .withStartRow(split.startRow()).withStopRow(split.stopRow()).setCacheBlocks(false);
    Connection connection = ConnectionFactory.createConnection(conf);
    try {
      Table table = connection.getTable(split.dataset().dataTable());
      return new SnapshotSplitReader(connection, split, table, table.getScanner(scan));
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** Moves to the next row; false at the end of the split. */
  public boolean next() throws IOException {
    Result r = done ? null : scanner.next();
    if (r == null) {
      if (!done && new LockTable(connection, split.dataset().lockTable(), Clock.systemUTC())
          .isCleaning(split.snapshotId())) {
        throw SnapshotCleanedException.whileReading(split.dataset(), split.snapshotId(),
            "the job's reader pin lapsed (the process that computed the splits stopped renewing it);"
                + " keep that process alive while the job runs, or raise " + SnapshotInputFormatImpl.PIN_TTL);
      }
      done = true;
      return false;
    }
    key.set(RowKeys.userKey(r.getRow()));
    value.set(DataTable.toRow(r));
    return true;
  }

  /** The current row's user key; the same object on every call. */
  public ImmutableBytesWritable key() {
    return key;
  }

  /** The current row; the same object on every call. */
  public SnapshotRowWritable value() {
    return value;
  }

  /** 0 while reading, 1 at the end (a snapshot range gives no cheap position estimate). */
  public float progress() {
    return done ? 1f : 0f;
  }

  @Override
  public void close() throws IOException {
    try {
      scanner.close();
      table.close();
    } finally {
      connection.close();
    }
  }
}
