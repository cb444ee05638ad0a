package io.snapds.dataset.read;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.StorageErrors;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Counts a snapshot's rows and bytes as a reader gets them, for the record its publish writes
 * ({@link io.snapds.dataset.SnapshotWriter#commit()} calls it when neither its own counters nor
 * its task attempts' records say what is stored: failed and speculative attempts write rows too,
 * two tasks may write the same key, and a delete removes a row written before). The scan reads the snapshot's range as a reader does, one
 * region at a time per thread, several regions at once, and sends keys and value lengths only
 * ({@link KeyOnlyFilter} with lengths as values), not the values.
 */
@InterfaceAudience.Private
public final class SnapshotRowCounter {
  /** Rows, and bytes counted as the core's row writer does: key once, then qualifier and value of each cell. */
  public record Counts(long rows, long bytes) {}

  /** How many regions are counted at once. */
  static final int PARALLELISM = 8;

  private SnapshotRowCounter() {}

  /**
   * Counts {@code snapshot}'s rows and bytes: one key-only scan per region its range touches
   * ({@link SplitPlanner}), up to {@value #PARALLELISM} at a time.
   */
  public static Counts count(Connection connection, DatasetId dataset, SnapshotKeys snapshot) {
    List<ReadSplit> pieces;
    try {
      pieces = SplitPlanner.plan(connection, dataset, snapshot, RowScan.all());
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset.dataTable(), "find the regions of snapshot " + snapshot.id(), e);
    }
    if (pieces.size() <= 1) {
      return count(connection, dataset, snapshot, snapshot.start(), snapshot.stop());
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(PARALLELISM, pieces.size()), r -> {
      Thread t = new Thread(r, "snapds-row-counter");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<Counts>> counted = new ArrayList<>();
      for (ReadSplit piece : pieces) {
        counted.add(pool.submit(() -> count(connection, dataset, snapshot, piece.startRow(), piece.stopRow())));
      }
      long rows = 0;
      long bytes = 0;
      for (Future<Counts> f : counted) {
        Counts c = f.get();
        rows += c.rows();
        bytes += c.bytes();
      }
      return new Counts(rows, bytes);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r
          : StorageErrors.translate(dataset.dataTable(), "count the rows of snapshot " + snapshot.id(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while counting the rows of snapshot " + snapshot.id() + " of "
          + dataset, e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** The rows and bytes of {@code [start, stop)}, a part of the snapshot's range (regions never split a row). */
  private static Counts count(Connection connection, DatasetId dataset, SnapshotKeys snapshot, byte[] start,
      byte[] stop) {
    long rows = 0;
    long bytes = 0;
    Scan scan = DataTable.toHBaseScan(snapshot, RowScan.all().caching(1000)).withStartRow(start).withStopRow(stop)
        .setFilter(new KeyOnlyFilter(true)).setCacheBlocks(false).setAllowPartialResults(true);
    try (Table table = connection.getTable(dataset.dataTable()); ResultScanner scanner = table.getScanner(scan)) {
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
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset.dataTable(), "count the rows of snapshot " + snapshot.id(), e);
    }
    return new Counts(rows, bytes);
  }
}
