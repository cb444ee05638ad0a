package io.snapds.hive;

import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.StorageException;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.RowKeys;
import java.io.IOException;
import java.time.Clock;
import java.util.Iterator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

/**
 * Reads one {@link SnapshotSplit}: the user's row key and the row's cells (with the snapshot they
 * belong to), and counts the rows it
 * returns in the {@code snapds:ROWS_READ} counter.
 *
 * <p>When its rows run out it checks that cleanup has not begun deleting the snapshot (which
 * happens only if the query's reader pin lapsed): a task fails rather than end with a split cut
 * short, as the MapReduce split reader does.
 */
final class SnapshotRecordReader implements RecordReader<ImmutableBytesWritable, HiveSnapshotRow> {
  private final Connection connection;
  private final SnapshotSplit split;
  private final Table table;
  private final ResultScanner scanner;
  private final Iterator<Result> results;
  private final Reporter reporter;
  private long rows;
  private boolean done;

  /** @param keysOnly the query needs no column but the key: fetch one cell per row */
  SnapshotRecordReader(Connection connection, SnapshotSplit split, boolean keysOnly, int caching, Reporter reporter)
      throws IOException {
    Scan scan = new Scan().withStartRow(split.startRow()).withStopRow(split.stopRow()).setCaching(caching)
        .setCacheBlocks(false);
    if (keysOnly) {
      scan.setFilter(new FirstKeyOnlyFilter());
    }
    this.connection = connection;
    this.split = split;
    this.table = connection.getTable(split.dataset().dataTable());
    this.scanner = table.getScanner(scan);
    this.results = scanner.iterator();
    this.reporter = reporter == null ? Reporter.NULL : reporter;
  }

  @Override
  public boolean next(ImmutableBytesWritable key, HiveSnapshotRow value) throws IOException {
    try {
      if (done) {
        return false;
      }
      if (!results.hasNext()) {
        done = true;
        if (new LockTable(connection, split.dataset().lockTable(), Clock.systemUTC()).isCleaning(split.snapshotId())) {
          throw SnapshotCleanedException.whileReading(split.dataset(), split.snapshotId(),
              "the query's reader pin lapsed (the Hive session that compiled the query stopped renewing it);"
                  + " keep that session alive while the query runs");
        }
        return false;
      }
      Result r = results.next();
      key.set(RowKeys.userKey(r.getRow()));
      value.set(DataTable.toRow(r), split.snapshotId());
      rows++;
      reporter.incrCounter(HiveTableProperties.COUNTER_GROUP, HiveTableProperties.ROWS_READ, 1);
      return true;
    } catch (SnapshotCleanedException e) {
      throw new IOException(e.getMessage(), e);
    } catch (StorageException | IllegalStateException e) {
      throw new IOException("reading snapshot rows failed", e);
    }
  }

  @Override
  public ImmutableBytesWritable createKey() {
    return new ImmutableBytesWritable();
  }

  @Override
  public HiveSnapshotRow createValue() {
    return new HiveSnapshotRow();
  }

  @Override
  public long getPos() {
    return rows;
  }

  @Override
  public float getProgress() {
    return 0;
  }

  @Override
  public void close() throws IOException {
    scanner.close();
    table.close();
  }
}
