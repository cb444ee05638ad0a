package io.snapds.hive;

import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.StorageException;
import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

/**
 * A reader of the core's read plan ({@code SplitReader} or {@code DiffSplitReader}) as the record
 * reader Hive runs over a {@link CoreSplit}: the user's row key and a {@link HiveSnapshotRow} per
 * row, counted in {@code snapds:ROWS_READ} and as the position. A {@link SnapshotCleanedException}
 * (the query's pins lapsed and cleanup began) fails the task with its message, and a storage
 * failure with what was being read, rather than end with a split cut short. Subclasses say how
 * one row is read into the key and value.
 */
abstract class CoreRecordReader<R extends Closeable> implements RecordReader<ImmutableBytesWritable, HiveSnapshotRow> {
  private final R reader;
  private final Reporter reporter;
  private final String whenFailed;
  private long rows;

  /** @param whenFailed the message of the {@link IOException} a storage failure becomes */
  CoreRecordReader(R reader, Reporter reporter, String whenFailed) {
    this.reader = reader;
    this.reporter = reporter == null ? Reporter.NULL : reporter;
    this.whenFailed = whenFailed;
  }

  /** The core reader this one wraps. */
  final R reader() {
    return reader;
  }

  /** Hive's reporter (never null). */
  final Reporter reporter() {
    return reporter;
  }

  /** Reads the next row into {@code key} and {@code value}; false at the end of the split. */
  abstract boolean readNext(ImmutableBytesWritable key, HiveSnapshotRow value) throws IOException;

  @Override
  public final boolean next(ImmutableBytesWritable key, HiveSnapshotRow value) throws IOException {
    try {
      if (!readNext(key, value)) {
        return false;
      }
      rows++;
      reporter.incrCounter(HiveTableProperties.COUNTER_GROUP, HiveTableProperties.ROWS_READ, 1);
      return true;
    } catch (SnapshotCleanedException e) {
      throw new IOException(e.getMessage(), e);
    } catch (StorageException | IllegalStateException e) {
      throw new IOException(whenFailed, e);
    }
  }

  @Override
  public final ImmutableBytesWritable createKey() {
    return new ImmutableBytesWritable();
  }

  @Override
  public final HiveSnapshotRow createValue() {
    return new HiveSnapshotRow();
  }

  @Override
  public final long getPos() {
    return rows;
  }

  @Override
  public final float getProgress() {
    return 0;
  }

  @Override
  public final void close() throws IOException {
    reader.close();
  }
}
