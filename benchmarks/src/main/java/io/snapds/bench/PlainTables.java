package io.snapds.bench;

import java.io.IOException;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/** Plain HBase tables for the baselines, with the data table's family settings. */
final class PlainTables {
  static final String NAMESPACE = "bench";

  private final Connection connection;

  PlainTables(Connection connection) {
    this.connection = connection;
  }

  /** A fresh table {@code bench:name} with family {@code d} keeping {@code versions} versions. */
  TableName create(String name, int versions) throws IOException {
    TableName table = TableName.valueOf(NAMESPACE, name);
    try (Admin admin = connection.getAdmin()) {
      try {
        admin.createNamespace(NamespaceDescriptor.create(NAMESPACE).build());
      } catch (NamespaceExistException exists) {
        // created by an earlier benchmark
      }
      if (admin.tableExists(table)) {
        drop(admin, table);
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(table).setColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(RowData.FAMILY_BYTES).setMaxVersions(versions).build()).build());
    }
    return table;
  }

  TableName create(String name) throws IOException {
    return create(name, 1);
  }

  void drop(TableName table) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(table)) {
        drop(admin, table);
      }
    }
  }

  private static void drop(Admin admin, TableName table) throws IOException {
    if (admin.isTableEnabled(table)) {
      admin.disableTable(table);
    }
    admin.deleteTable(table);
  }

  /** Flushes the memstores to files, so reads of both sides come from the same kind of storage. */
  void flush(TableName table) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      admin.flush(table);
    }
  }

  /** Rows and cells a reader of the latest version sees. */
  Count countVisible(TableName table) throws IOException {
    return count(table, new Scan().setCaching(1000));
  }

  /**
   * Everything still stored: every version and delete marker a compaction has not yet removed
   * (a raw scan of all versions).
   */
  Count countStored(TableName table) throws IOException {
    return count(table, new Scan().setRaw(true).readAllVersions().setCaching(1000));
  }

  private Count count(TableName table, Scan scan) throws IOException {
    long rows = 0;
    long cells = 0;
    try (Table t = connection.getTable(table); ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        rows++;
        cells += r.rawCells().length;
      }
    }
    return new Count(rows, cells);
  }

  /** Rows and cells counted in a table. */
  record Count(long rows, long cells) {
    Count plus(Count other) {
      return new Count(rows + other.rows, cells + other.cells);
    }

    @Override
    public String toString() {
      return Format.number(rows) + " rows / " + Format.number(cells) + " cells";
    }
  }
}
