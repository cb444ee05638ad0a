package io.snapds.hive;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.StorageException;
import io.snapds.dataset.read.ReadSplit;
import io.snapds.dataset.read.SplitReader;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

/**
 * The core {@link SplitReader} of one split as Hive's record reader: the user's row key and the
 * row's cells (with the snapshot they belong to), counting the rows it returns in the
 * {@code snapds:ROWS_READ} counter. Should the query's reader pin lapse and cleanup begin, the
 * split reader fails the task rather than end with a split cut short.
 */
final class HiveSnapshotRecordReader implements RecordReader<ImmutableBytesWritable, HiveSnapshotRow> {
  private static final String WHEN_PIN_LAPSED = "the query's reader pin lapsed (the Hive session that compiled"
      + " the query stopped renewing it); keep that session alive while the query runs";

  private final SplitReader reader;
  private final Reporter reporter;
  private long rows;

  /** @param keysOnly the query needs no column but the key: fetch one cell per row */
  HiveSnapshotRecordReader(Connection connection, ReadSplit split, boolean keysOnly, int caching, Reporter reporter)
      throws IOException {
    this.reader = SplitReader.open(connection, split, RowScan.all().caching(caching), keysOnly, WHEN_PIN_LAPSED);
    this.reporter = reporter == null ? Reporter.NULL : reporter;
  }

  @Override
  public boolean next(ImmutableBytesWritable key, HiveSnapshotRow value) throws IOException {
    try {
      if (!reader.next()) {
        return false;
      }
      key.set(reader.key());
      value.set(reader.row(), reader.split().snapshotId());
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
    reader.close();
  }
}
