package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkState;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
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
 * fetches every version and keeps, per column, the newest one that {@link Transaction#isVisible}
 * accepts. Rolling back deletes exactly the versions this transaction wrote. The change set for
 * conflict detection is the set of rows written.
 *
 * <p>Usage (what {@link MetadataStore} does): {@code startTx(tx)}, {@link #scan}/{@link #put},
 * then the usual {@code getTxChanges / commitTx / postTxCommit} or {@code rollbackTx}.
 */
final class TxMetaTable implements TransactionAware {
  static final byte[] FAMILY = Bytes.toBytes("m");
  private static final byte[] TOMBSTONE = new byte[0];

  private final Connection connection;
  private final TableName name;
  private final List<Put> pending = new ArrayList<>();
  private final List<Put> written = new ArrayList<>();
  private Transaction tx;

  TxMetaTable(Connection connection, TableName name) {
    this.connection = connection;
    this.name = name;
  }

  /** Visible rows whose key starts with {@code prefix}: row to (qualifier to value). */
  NavigableMap<byte[], NavigableMap<byte[], byte[]>> scan(byte[] prefix) throws IOException {
    checkState(tx != null, "no transaction in progress");
    Scan scan = new Scan().setRowPrefixFilter(prefix).addFamily(FAMILY).readAllVersions()
        .setTimeRange(0, tx.getWritePointer() + 1);
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    try (Table table = connection.getTable(name); ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) {
        NavigableMap<byte[], byte[]> visible = visibleColumns(r);
        if (!visible.isEmpty()) {
          rows.put(r.getRow(), visible);
        }
      }
    }
    return rows;
  }

  private NavigableMap<byte[], byte[]> visibleColumns(Result r) {
    NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    NavigableMap<byte[], byte[]> decided = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    // cells come newest first within a column: the first visible version decides the column
    for (Cell c : r.rawCells()) {
      byte[] q = CellUtil.cloneQualifier(c);
      if (decided.containsKey(q) || !tx.isVisible(c.getTimestamp())) {
        continue;
      }
      decided.put(q, TOMBSTONE);
      if (c.getValueLength() > 0) {
        cols.put(q, CellUtil.cloneValue(c));
      }
    }
    return cols;
  }

  void put(byte[] row, byte[] qualifier, byte[] value) {
    checkState(tx != null, "no transaction in progress");
    pending.add(new Put(row).addColumn(FAMILY, qualifier, tx.getWritePointer(), value));
  }

  void delete(byte[] row, byte[] qualifier) {
    put(row, qualifier, TOMBSTONE);
  }

  @Override
  public void startTx(Transaction transaction) {
    this.tx = transaction;
    pending.clear();
    written.clear();
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
    // persist before the transaction service commits; the versions stay invisible until then
    written.addAll(pending);
    try (Table table = connection.getTable(name)) {
      table.put(new ArrayList<>(pending));
    }
    return true;
  }

  @Override
  public void postTxCommit() {
    tx = null;
    pending.clear();
    written.clear();
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
    try (Table table = connection.getTable(name)) {
      table.delete(undo);
    }
    tx = null;
    pending.clear();
    written.clear();
    return true;
  }

  @Override
  public String getTransactionAwareName() {
    return "meta:" + name;
  }
}
