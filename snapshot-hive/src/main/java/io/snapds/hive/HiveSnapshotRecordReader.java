package io.snapds.hive;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.read.ReadSplit;
import io.snapds.dataset.read.SplitReader;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapred.Reporter;

/**
 * The core {@link SplitReader} of one split as Hive's record reader: the user's row key and the
 * row's cells (with the snapshot they belong to), counting the rows it returns in the
 * {@code snapds:ROWS_READ} counter. Should the query's reader pin lapse and cleanup begin, the
 * split reader fails the task rather than end with a split cut short.
 */
final class HiveSnapshotRecordReader extends CoreRecordReader<SplitReader> {
  private static final String WHEN_PIN_LAPSED = "the query's reader pin lapsed (the Hive session that compiled"
      + " the query stopped renewing it); keep that session alive while the query runs";

  /** @param keysOnly the query needs no column but the key: fetch one cell per row */
  HiveSnapshotRecordReader(Connection connection, ReadSplit split, boolean keysOnly, int caching, Reporter reporter)
      throws IOException {
    super(SplitReader.open(connection, split, RowScan.all().caching(caching), keysOnly, WHEN_PIN_LAPSED), reporter,
        "reading snapshot rows failed");
  }

  @Override
  boolean readNext(ImmutableBytesWritable key, HiveSnapshotRow value) throws IOException {
    SplitReader reader = reader();
    if (!reader.next()) {
      return false;
    }
    key.set(reader.key());
    value.set(reader.row(), reader.split().snapshotId());
    return true;
  }
}
