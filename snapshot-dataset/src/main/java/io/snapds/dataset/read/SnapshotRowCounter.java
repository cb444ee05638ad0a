package io.snapds.dataset.read;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.StorageErrors;
import io.snapds.dataset.store.DataTable;
import java.io.IOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Counts a snapshot's rows and bytes as a reader gets them, for the record its publish writes
 * ({@link io.snapds.dataset.SnapshotWriter#commit()} calls it whenever its own counters are not
 * exact: always for MapReduce, CDAP and Hive, whose tasks write). Writers' counters cannot be
 * exact: failed and speculative attempts write rows too, two tasks may write the same key, and a
 * delete removes a row written before. The scan reads the snapshot's range as a reader does and
 * sends keys and value lengths only ({@link KeyOnlyFilter} with lengths as values), not the values.
 */
@InterfaceAudience.Private
public final class SnapshotRowCounter {
  /** Rows, and bytes counted as the core's row writer does: key once, then qualifier and value of each cell. */
  public record Counts(long rows, long bytes) {}

  private SnapshotRowCounter() {}

  public static Counts count(Connection connection, DatasetId dataset, SnapshotKeys snapshot) {
    long rows = 0;
    long bytes = 0;
    try (Table table = connection.getTable(dataset.dataTable());
        ResultScanner scanner = table.getScanner(DataTable.toHBaseScan(snapshot, RowScan.all().caching(1000))
            .setFilter(new KeyOnlyFilter(true)).setCacheBlocks(false).setAllowPartialResults(true))) {
      // a wide row may come in several partial Results, one after the other: it counts once
      byte[] last = null;
      for (Result r : scanner) {
        if (last == null || !Bytes.equals(last, r.getRow())) {
          last = r.getRow();
          rows++;
          bytes += last.length - snapshot.prefixLength();
        }
        for (Cell c : r.rawCells()) {
          bytes += c.getQualifierLength() + Bytes.toInt(c.getValueArray(), c.getValueOffset(), c.getValueLength());
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      throw StorageErrors.translate(dataset.dataTable(), "count the rows of snapshot " + snapshot.id(), e);
    }
    return new Counts(rows, bytes);
  }
}
