package io.snapds.hive;

import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.read.DiffSplit;
import io.snapds.dataset.read.DiffSplitReader;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapred.Reporter;

/**
 * The core {@link DiffSplitReader} of one diff split as Hive's record reader: per change, the
 * user's row key and the row (the old row of a REMOVED change, the new row of an ADDED or CHANGED
 * one, with the snapshot it was read from) and the change type. Counts the changes it returns in
 * {@code snapds:ROWS_READ} and its split in {@code snapds:DIFF_SPLITS}. Should the query's pins
 * lapse and cleanup begin on either side, the split reader fails the task rather than report a
 * short side as added or removed rows.
 */
final class HiveDiffRecordReader extends CoreRecordReader<DiffSplitReader> {
  private static final String WHEN_PIN_LAPSED = "the query's reader pins lapsed (the Hive session that compiled"
      + " the query stopped renewing them); keep that session alive while the query runs";

  private final DiffSplit split;

  /** @param projection the columns a change is judged on (the table's), and the scan caching */
  HiveDiffRecordReader(Connection connection, DiffSplit split, RowScan projection, Reporter reporter)
      throws IOException {
    super(DiffSplitReader.open(connection, split, projection, WHEN_PIN_LAPSED), reporter,
        "reading the diff's rows failed");
    this.split = split;
    reporter().incrCounter(HiveTableProperties.COUNTER_GROUP, HiveTableProperties.DIFF_SPLITS, 1);
  }

  @Override
  boolean readNext(ImmutableBytesWritable key, HiveSnapshotRow value) throws IOException {
    DiffSplitReader reader = reader();
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
    return true;
  }
}
