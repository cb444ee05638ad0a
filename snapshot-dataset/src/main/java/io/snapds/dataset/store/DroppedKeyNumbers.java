package io.snapds.dataset.store;

import io.snapds.dataset.DatasetId;
import java.io.IOException;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The key numbers of dropped datasets, kept where a drop does not reach: one table per namespace,
 * {@code S:snapds.dropped} (no dataset's table, whose names all end in {@code .data}, {@code .meta}
 * or {@code .lock}), one row per dataset name ever dropped, column {@code m:kno}: the highest key
 * number any incarnation of that name gave (8 bytes). A drop raises it before it deletes the
 * tables; a create of that name continues numbering above it. So no range of a dropped
 * incarnation is ever given to a new one, and what a process of the dropped incarnation still
 * does (a writer between flushes, a cleanup or a sweep between its check and its deletes) lands in
 * ranges no snapshot of the new one owns, as after a truncate (issue #36 item 1).
 *
 * <p>Plain HBase cells, no transaction: the value only ever rises (a check-and-put on the value
 * read). Cost: one {@code Get} per create, one {@code Get} and one check-and-put per drop; one
 * row per name dropped, whatever the publishes.
 */
public final class DroppedKeyNumbers {
  /** The table's qualifier in each namespace. */
  public static final String TABLE = "snapds.dropped";
  private static final byte[] FAMILY = MetadataLayout.FAMILY;
  private static final byte[] KEY_NUMBER = Bytes.toBytes("kno");

  private DroppedKeyNumbers() {}

  /** The table of {@code namespace}. */
  public static TableName table(String namespace) {
    return TableName.valueOf(namespace, TABLE);
  }

  /** The highest key number a dropped incarnation of {@code dataset} gave; 0 when none was dropped. */
  public static long highest(Admin admin, Connection connection, DatasetId dataset) throws IOException {
    TableName table = table(dataset.namespace());
    if (!admin.tableExists(table)) {
      return 0;
    }
    try (Table t = connection.getTable(table)) {
      return read(t, dataset);
    }
  }

  /**
   * Raises the mark of {@code dataset} to {@code keyNumber} (never lowers it), creating the table
   * the first time a dataset of the namespace is dropped.
   */
  public static void raise(Admin admin, Connection connection, DatasetId dataset, long keyNumber) throws IOException {
    if (keyNumber <= 0) {
      return;
    }
    TableName table = table(dataset.namespace());
    if (!admin.tableExists(table)) {
      try {
        admin.createTable(TableDescriptorBuilder.newBuilder(table)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build());
      } catch (TableExistsException raced) {
        // another drop in the namespace created it: fine
      }
    }
    byte[] row = Bytes.toBytes(dataset.name());
    try (Table t = connection.getTable(table)) {
      while (true) {
        long was = read(t, dataset);
        if (was >= keyNumber) {
          return;
        }
        Put put = new Put(row).addColumn(FAMILY, KEY_NUMBER, Bytes.toBytes(keyNumber));
        CheckAndMutate.Builder check = CheckAndMutate.newBuilder(row);
        CheckAndMutate cam = was == 0 ? check.ifNotExists(FAMILY, KEY_NUMBER).build(put)
            : check.ifMatches(FAMILY, KEY_NUMBER, CompareOperator.EQUAL, Bytes.toBytes(was)).build(put);
        if (t.checkAndMutate(cam).isSuccess()) {
          return;
        }
        // another drop of the same name raised it meanwhile: read again
      }
    }
  }

  private static long read(Table t, DatasetId dataset) throws IOException {
    Result r = t.get(new Get(Bytes.toBytes(dataset.name())).addColumn(FAMILY, KEY_NUMBER));
    byte[] v = r.getValue(FAMILY, KEY_NUMBER);
    return v == null || v.length != Long.BYTES ? 0 : Bytes.toLong(v);
  }
}
