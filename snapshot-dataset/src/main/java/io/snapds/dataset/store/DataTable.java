package io.snapds.dataset.store;

import java.io.UncheckedIOException;
import io.snapds.dataset.StorageErrors;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.StorageException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads and range-deletes snapshots in the data table. Data rows carry no transaction
 * information: a snapshot's range is written once, before it is published, and read only after,
 * so plain HBase reads are the right ones.
 */
public final class DataTable {
  private final Connection connection;
  private final TableName name;
  private volatile Table table;

  /** The connection this table's reads and writes go through (not owned: never closed here). */
  public Connection connection() {
    return connection;
  }

  public DataTable(Connection connection, TableName name) {
    this.connection = connection;
    this.name = name;
  }

  public TableName name() {
    return name;
  }

  /** The HBase scan that reads {@code scan} within one snapshot; adapters (MapReduce) reuse it. */
  public static Scan toHBaseScan(SnapshotKeys snapshot, RowScan scan) {
    byte[] start = scan.startKey().map(snapshot::bound).orElse(snapshot.start());
    byte[] stop = scan.stopKey().map(snapshot::bound).orElse(snapshot.stop());
    Scan s = new Scan().withStartRow(start).withStopRow(stop).setCaching(scan.caching());
    addColumns(s, scan);
    if (scan.limit() > 0 && scan.limit() <= Integer.MAX_VALUE) {
      s.setLimit((int) scan.limit());
    }
    return s;
  }

  private static void addColumns(Scan s, RowScan scan) {
    for (RowScan.Column c : scan.columns()) {
      if (c.qualifier() == null) {
        s.addFamily(c.family());
      } else {
        s.addColumn(c.family(), c.qualifier());
      }
    }
  }

  public Optional<SnapshotRow> get(SnapshotKeys snapshot, byte[] key, RowScan projection) {
    try {
      Result r = table().get(toGet(snapshot, key, projection)); // one RPC, not a batch of one
      return r.isEmpty() ? Optional.empty() : Optional.of(toRow(snapshot, r));
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read snapshot " + snapshot, e);
    }
  }

  public List<Optional<SnapshotRow>> get(SnapshotKeys snapshot, List<byte[]> keys, RowScan projection) {
    List<Get> gets = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      gets.add(toGet(snapshot, k, projection));
    }
    try {
      List<Optional<SnapshotRow>> out = new ArrayList<>(keys.size());
      for (Result r : table().get(gets)) {
        out.add(r.isEmpty() ? Optional.empty() : Optional.of(toRow(snapshot, r)));
      }
      return out;
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read snapshot " + snapshot, e);
    }
  }

  private static Get toGet(SnapshotKeys snapshot, byte[] key, RowScan projection) {
    Get g = new Get(snapshot.rowKey(key));
    for (RowScan.Column c : projection.columns()) {
      if (c.qualifier() == null) {
        g.addFamily(c.family());
      } else {
        g.addColumn(c.family(), c.qualifier());
      }
    }
    return g;
  }

  /**
   * The table for gets, made once per data table. In HBase 2 a {@code Table} from a connection
   * holds only its settings and the connection's shared pools (writes go through a
   * {@code BufferedMutator}, not a buffer in the table), so concurrent gets may share it, and
   * closing it releases nothing the connection does not own: it is never closed.
   */
  private Table table() {
    Table t = table;
    if (t == null) {
      try {
        t = connection.getTable(name);
      } catch (IOException | UncheckedIOException e) {
        throw StorageErrors.translate(name, "open " + name, e);
      }
      table = t;
    }
    return t;
  }

  public RowScanner scan(SnapshotKeys snapshot, RowScan scan) {
    return scan(snapshot, scan, () -> {});
  }

  /**
   * The rows of {@code scan} within {@code snapshot}; {@code whenDone} runs once, when the rows
   * run out (or the limit is reached) or when the scanner is closed before that, and what it
   * throws reaches the caller of {@code hasNext()} or {@code close()}. Readers use it for the
   * check that cleanup has not deleted rows under them, without a scanner of their own around
   * this one (one iterator per row, not two).
   */
  public RowScanner scan(SnapshotKeys snapshot, RowScan scan, Runnable whenDone) {
    try {
      Table t = connection.getTable(name);
      return new Scanner(t, t.getScanner(toHBaseScan(snapshot, scan)), scan.limit(), snapshot.prefixLength(),
          whenDone);
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "scan snapshot " + snapshot, e);
    }
  }

  /**
   * Converts an HBase result of {@code snapshot}'s range into the user's row (prefix stripped),
   * without copying: the row keeps the result's cells and reads its key from the first of them.
   */
  public static SnapshotRow toRow(SnapshotKeys snapshot, Result r) {
    return SnapshotRow.ofStoredCells(r.rawCells(), snapshot.prefixLength());
  }

  /**
   * The user keys where the data table's regions inside {@code snapshot}'s range begin, ascending
   * (empty when one region holds the whole range), from {@link #regionsIn} with the connection's
   * cached locations. A stale cache only makes pieces that span more than one region: the
   * boundaries cut the work, they do not decide what is deleted.
   */
  public List<byte[]> regionBoundaries(SnapshotKeys snapshot) {
    try (RegionLocator locator = connection.getRegionLocator(name)) {
      List<HRegionLocation> regions = regionsIn(locator, snapshot.start(), snapshot.stop(), false,
          Integer.MAX_VALUE);
      List<byte[]> boundaries = new ArrayList<>(regions.size());
      for (HRegionLocation r : regions.subList(0, regions.size() - 1)) {
        byte[] end = r.getRegion().getEndKey();
        if (end.length > snapshot.prefixLength()) { // a boundary at the range's own start cuts nothing
          boundaries.add(snapshot.userKey(end));
        }
      }
      return boundaries;
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "locate the regions of snapshot " + snapshot, e);
    }
  }

  /**
   * The locations of the regions that overlap the row range [{@code start}, {@code stop}), in key
   * order, at most {@code limit} of them: walked from {@code start} one lookup per region, never
   * the whole table's regions (those of cleaned snapshots may not all be merged yet). With
   * {@code reload} each lookup goes to hbase:meta (a cached location may predate a split or a
   * merge); without, the connection's cache answers when it can. The one walker of the project:
   * the cleanup's pieces, the pre-split and the region merger all use it.
   */
  public static List<HRegionLocation> regionsIn(RegionLocator locator, byte[] start, byte[] stop, boolean reload,
      int limit) throws IOException {
    List<HRegionLocation> regions = new ArrayList<>();
    byte[] row = start;
    while (regions.size() < limit) {
      HRegionLocation at = locator.getRegionLocation(row, reload);
      regions.add(at);
      byte[] end = at.getRegion().getEndKey();
      if (end.length == 0 || Bytes.compareTo(end, stop) >= 0) {
        break;
      }
      row = end;
    }
    return regions;
  }

  /**
   * Deletes the rows of {@code snapshot} whose user keys lie in {@code range}; returns how many.
   * Idempotent. A key-only scan of the range feeds the deletes to a {@code BufferedMutator}, so
   * the scan goes on while earlier deletes are sent; the mutator's close sends the rest and
   * reports any failure, so when this returns every delete is on the region servers.
   */
  public long deleteRange(SnapshotKeys snapshot, CleanupProgress.KeyRange range, int batchSize) {
    byte[] start = range.start().length == 0 ? snapshot.start() : snapshot.bound(range.start());
    byte[] stop = range.stop().length == 0 ? snapshot.stop() : snapshot.bound(range.stop());
    return deleteRows(start, stop, batchSize, "delete the rows of snapshot " + snapshot + " in " + range);
  }

  /**
   * Deletes every row in {@code [start, stop)} of the data table, as {@link #deleteRange} does, and
   * returns how many there were: cleanup's sweep of the key ranges no live snapshot owns.
   */
  public long deleteRows(byte[] start, byte[] stop, int batchSize) {
    return deleteRows(start, stop, batchSize, "delete the rows in [" + Bytes.toStringBinary(start) + ", "
        + Bytes.toStringBinary(stop) + ")");
  }

  private long deleteRows(byte[] start, byte[] stop, int batchSize, String what) {
    Scan s = new Scan().withStartRow(start).withStopRow(stop)
        .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
        .setCaching(batchSize).setCacheBlocks(false);
    long deleted = 0;
    try (Table t = connection.getTable(name); ResultScanner rs = t.getScanner(s);
        BufferedMutator deletes = connection.getBufferedMutator(name)) {
      for (Result r : rs) {
        deletes.mutate(new Delete(r.getRow()));
        deleted++;
      }
      deletes.flush();
      return deleted;
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, what, e);
    }
  }

  private static final class Scanner implements RowScanner {
    private final Table table;
    private final ResultScanner scanner;
    private final long limit;
    private final int prefixLength;
    private final Runnable whenDone;
    private boolean done;

    Scanner(Table table, ResultScanner scanner, long limit, int prefixLength, Runnable whenDone) {
      this.table = table;
      this.scanner = scanner;
      this.limit = limit;
      this.prefixLength = prefixLength;
      this.whenDone = whenDone;
    }

    private void done() {
      if (!done) {
        done = true;
        whenDone.run();
      }
    }

    @Override
    public Iterator<SnapshotRow> iterator() {
      Iterator<Result> it = scanner.iterator();
      return new Iterator<>() {
        private long returned;

        @Override
        public boolean hasNext() {
          boolean more;
          try {
            more = (limit == 0 || returned < limit) && it.hasNext();
          } catch (UncheckedIOException e) {
            throw StorageErrors.translate(table.getName(), "scan", e); // the scanner's next batch failed
          }
          if (!more) {
            done();
          }
          return more;
        }

        @Override
        public SnapshotRow next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          returned++;
          return SnapshotRow.ofStoredCells(it.next().rawCells(), prefixLength);
        }
      };
    }

    @Override
    public void close() {
      try {
        done();
      } finally {
        scanner.close();
        try {
          table.close();
        } catch (IOException e) {
          throw new StorageException("closing scanner", e);
        }
      }
    }
  }
}
