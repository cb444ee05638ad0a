package io.snapds.hive;

import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.StorageException;
import io.snapds.dataset.read.DiffSplit;
import io.snapds.dataset.read.DiffSplitReader;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

/**
 * The core {@link DiffSplitReader} of one diff split as Hive's record reader: per change, the
 * user's row key and the row (the old row of a REMOVED change, the new row of an ADDED or CHANGED
 * one, with the snapshot it was read from) and the change type. Counts the changes it returns in
 * {@code snapds:ROWS_READ} and its split in {@code snapds:DIFF_SPLITS}. Should the query's pins
 * lapse and cleanup begin on either side, the split reader fails the task rather than report a
 * short side as added or removed rows.
 */
final class HiveDiffRecordReader implements RecordReader<ImmutableBytesWritable, HiveSnapshotRow> {
  private static final String WHEN_PIN_LAPSED = "the query's reader pins lapsed (the Hive session that compiled"
      + " the query stopped renewing them); keep that session alive while the query runs";

  private final DiffSplitReader reader;
  private final DiffSplit split;
  private final Reporter reporter;
  private long changes;

  /** @param projection the columns a change is judged on (the table's), and the scan caching */
  HiveDiffRecordReader(Connection connection, DiffSplit split, RowScan projection, Reporter reporter) throws IOException {
    this.reader = DiffSplitReader.open(connection, split, projection, WHEN_PIN_LAPSED);
    this.split = split;
    this.reporter = reporter == null ? Reporter.NULL : reporter;
    this.reporter.incrCounter(HiveTableProperties.COUNTER_GROUP, HiveTableProperties.DIFF_SPLITS, 1);
  }

  @Override
  public boolean next(ImmutableBytesWritable key, HiveSnapshotRow value) throws IOException {
    try {
      if (!reader.next()) {
        return false;
      }
      RowChange c = reader.change();
      key.set(c.key());
      if (c.kind() == RowChange.Kind.REMOVED) {
        value.set(c.before().orElseThrow(), split.before().snapshotId(), c.kind(), c.before().orElseThrow());
      } else {
        value.set(c.after().orElseThrow(), split.after().snapshotId(), c.kind(), c.before().orElse(null));
      }
      changes++;
      reporter.incrCounter(HiveTableProperties.COUNTER_GROUP, HiveTableProperties.ROWS_READ, 1);
      return true;
    } catch (SnapshotCleanedException e) {
      throw new IOException(e.getMessage(), e);
    } catch (StorageException | IllegalStateException e) {
      throw new IOException("reading the diff's rows failed", e);
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
    return changes;
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
