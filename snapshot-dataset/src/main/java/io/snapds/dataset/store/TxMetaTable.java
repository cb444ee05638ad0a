package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkState;
import static io.snapds.dataset.store.MetadataLayout.FAMILY;

import io.snapds.dataset.StorageErrors;
import io.snapds.dataset.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionAware;

/**
 * Transactional access to the metadata table, with visibility decided on the client: no
 * coprocessor is needed on the region servers.
 *
 * <p>A write is a cell whose timestamp is the transaction's write pointer; a delete is a cell
 * with an empty value (HBase deletes are not versioned, so they could not be undone). A read
 * fetches the versions up to the write pointer of just the rows asked for and keeps, per column,
 * the newest one that {@link Transaction#isVisible} accepts. Rolling back deletes exactly the
 * versions this transaction wrote. The change set for conflict detection is the rows written.
 *
 * <p>When pruning (in metadata updates), every row read is also checked for versions nobody can
 * see any more: versions of failed (invalid) transactions, and versions older than the newest one
 * at or below the {@linkplain #pruneBound() prune bound}. Those are deleted with the commit's
 * writes, so a cell keeps a handful of versions however many commits there are.
 */
final class TxMetaTable implements TransactionAware, MetaRows {
  private static final byte[] TOMBSTONE = new byte[0];

  private final Connection connection;
  private final TableName name;
  private final LongAdder bytesRead;
  private final LongAdder readCalls;
  private final LongAdder deletesSent;
  private final boolean pruning;
  private final List<Put> pending = new ArrayList<>();
  private final List<Delete> purges = new ArrayList<>();
  private final List<Result> seen = new ArrayList<>();
  private final List<Put> written = new ArrayList<>();
  private Result stateRow;
  private Transaction tx;

  TxMetaTable(Connection connection, TableName name, LongAdder bytesRead, LongAdder readCalls, LongAdder deletesSent,
      boolean pruning) {
    this.readCalls = readCalls;
    this.connection = connection;
    this.name = name;
    this.bytesRead = bytesRead;
    this.deletesSent = deletesSent;
    this.pruning = pruning;
  }

  @Override
  public Transaction transaction() {
    checkState(tx != null, "no transaction in progress");
    return tx;
  }

  @Override
  public NavigableMap<byte[], byte[]> get(byte[] row) {
    return getAll(List.of(row)).get(0);
  }

  @Override
  public List<NavigableMap<byte[], byte[]>> getAll(List<byte[]> rows) {
    checkState(tx != null, "no transaction in progress");
    List<NavigableMap<byte[], byte[]>> out = new ArrayList<>(rows.size());
    readCalls.increment();
    try (Table table = connection.getTable(name)) {
      List<Get> gets = new ArrayList<>(rows.size());
      for (byte[] row : rows) {
        gets.add(new Get(row).addFamily(FAMILY).readAllVersions().setTimeRange(0, tx.getWritePointer() + 1));
      }
      for (Result r : table.get(gets)) {
        out.add(observe(r));
      }
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read the metadata", e);
    }
    return out;
  }

  @Override
  public List<Row> scan(byte[] start, byte[] stop, boolean reverse, int limit) {
    checkState(tx != null, "no transaction in progress");
    List<Row> rows = new ArrayList<>();
    readCalls.increment();
    try (Table table = connection.getTable(name); ResultScanner scanner = table.getScanner(newScan(start, stop, reverse, limit))) {
      for (Result r : scanner) {
        NavigableMap<byte[], byte[]> visible = observe(r);
        if (!visible.isEmpty()) {
          rows.add(new Row(r.getRow(), visible));
          if (rows.size() >= limit) {
            break;
          }
        }
      }
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "scan the metadata", e);
    }
    return rows;
  }

  private Scan newScan(byte[] start, byte[] stop, boolean reverse, int limit) throws IOException {
    Scan scan = new Scan().addFamily(FAMILY).readAllVersions().setTimeRange(0, tx.getWritePointer() + 1)
        .setCaching(Math.max(1, Math.min(limit, 500)));
    if (reverse) {
      return scan.withStartRow(stop, false).withStopRow(start, true).setReversed(true);
    }
    return scan.withStartRow(start, true).withStopRow(stop, false);
  }

  /**
   * Counts what was fetched, keeps it for pruning, and returns the visible columns. Package-private
   * for {@code MetadataVisibilityBenchmark} (benchmarks-jmh), the client's hot path of every
   * metadata read.
   */
  NavigableMap<byte[], byte[]> observe(Result r) {
    NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    if (r.isEmpty()) {
      return cols;
    }
    long size = 0;
    NavigableMap<byte[], Boolean> decided = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    // cells come newest first within a column: the first visible version decides the column
    for (Cell c : r.rawCells()) {
      size += c.getSerializedSize();
      byte[] q = CellUtil.cloneQualifier(c);
      if (decided.containsKey(q) || !tx.isVisible(c.getTimestamp())) {
        continue;
      }
      decided.put(q, Boolean.TRUE);
      if (c.getValueLength() > 0) {
        cols.put(q, CellUtil.cloneValue(c));
      }
    }
    bytesRead.add(size);
    if (Bytes.equals(r.getRow(), PointerRow.ROW)) {
      stateRow = r;
    }
    if (pruning) {
      seen.add(r);
    }
    return cols;
  }

  @Override
  public long pruneBound() {
    if (stateRow == null) {
      return -1;
    }
    // Every commit writes the pointer row's version, and two commits that write one row cannot
    // both start before either commits: the committed versions form a chain in which each one
    // committed before the next began. Every transaction in progress began after the newest
    // committed version below the oldest in-progress id, so it sees the one before it.
    long oldest = tx.getWritePointer();
    for (long id : tx.getInProgress()) {
      oldest = Math.min(oldest, id);
    }
    long newest = -1;
    for (Cell c : stateRow.getColumnCells(FAMILY, PointerRow.VERSION)) {
      long ts = c.getTimestamp();
      if (ts < oldest && tx.isVisible(ts)) {
        if (newest < 0) {
          newest = ts;
        } else {
          return ts;
        }
      }
    }
    return -1;
  }

  /** Deletes of versions that no transaction can see: failed ones, and those below the bound. */
  private List<Delete> prunes() {
    List<Delete> out = new ArrayList<>();
    long bound = pruneBound();
    long[] invalid = tx.getInvalids().clone();
    Arrays.sort(invalid);
    for (Result r : seen) {
      Delete d = new Delete(r.getRow());
      byte[] lastQ = null;
      boolean floorFound = false;
      for (Cell c : r.rawCells()) {
        byte[] q = CellUtil.cloneQualifier(c);
        if (lastQ == null || !Bytes.equals(q, lastQ)) {
          lastQ = q;
          floorFound = false;
        }
        long ts = c.getTimestamp();
        if (Arrays.binarySearch(invalid, ts) >= 0) {
          d.addColumn(FAMILY, q, ts);
        } else if (ts <= bound && tx.isVisible(ts)) {
          if (floorFound || c.getValueLength() == 0) {
            d.addColumn(FAMILY, q, ts); // superseded for everyone, or a delete everyone sees
          }
          floorFound = true;
        }
      }
      if (!d.isEmpty()) {
        out.add(d);
      }
    }
    return out;
  }

  @Override
  public void put(byte[] row, byte[] qualifier, byte[] value) {
    checkState(tx != null, "no transaction in progress");
    pending.add(new Put(row).addColumn(FAMILY, qualifier, tx.getWritePointer(), value));
  }

  @Override
  public void delete(byte[] row, byte[] qualifier) {
    put(row, qualifier, TOMBSTONE);
  }

  @Override
  public void purge(byte[] row, long upTo) {
    purges.add(new Delete(row).addFamily(FAMILY, upTo));
  }

  @Override
  public void startTx(Transaction transaction) {
    this.tx = transaction;
    reset();
  }

  private void reset() {
    pending.clear();
    written.clear();
    purges.clear();
    seen.clear();
    stateRow = null;
  }

  @Override
  public void updateTx(Transaction transaction) {
    this.tx = transaction;
  }

  @Override
  public Collection<byte[]> getTxChanges() {
    List<byte[]> changes = new ArrayList<>();
    byte[] tableName = name.getName();
    for (Put p : pending) {
      changes.add(Bytes.add(tableName, new byte[] {0}, p.getRow()));
    }
    return changes;
  }

  @Override
  public boolean commitTx() throws Exception {
    if (pending.isEmpty()) {
      return true;
    }
    // persist before the transaction service commits; the versions stay invisible until then.
    // Prunes and purges only remove what nobody can see, whatever becomes of this transaction.
    written.addAll(pending);
    List<org.apache.hadoop.hbase.client.Row> batch = new ArrayList<>(pending);
    if (pruning) {
      List<Delete> prunes = prunes();
      batch.addAll(prunes);
      batch.addAll(purges);
      deletesSent.add(purges.size() + prunes.stream().mapToLong(Delete::size).sum());
    }
    try (Table table = connection.getTable(name)) {
      table.batch(batch, new Object[batch.size()]);
    }
    return true;
  }

  @Override
  public void postTxCommit() {
    tx = null;
    reset();
  }

  @Override
  public boolean rollbackTx() throws Exception {
    List<Delete> undo = new ArrayList<>();
    for (Put p : written) {
      Delete d = new Delete(p.getRow());
      for (var cells : p.getFamilyCellMap().values()) {
        for (Cell c : cells) {
          d.addColumn(FAMILY, CellUtil.cloneQualifier(c), c.getTimestamp());
        }
      }
      undo.add(d);
    }
    if (!undo.isEmpty()) {
      try (Table table = connection.getTable(name)) {
        table.delete(undo);
      }
    }
    tx = null;
    reset();
    return true;
  }

  @Override
  public String getTransactionAwareName() {
    return "meta:" + name;
  }
}
