package io.snapds.bench;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Baseline: two plain tables and a pointer row naming the live one. A replacement truncates the
 * standby table, writes it, then flips the pointer.
 */
final class TwoTableReplace implements ReplaceStrategy {
  private static final byte[] POINTER_ROW = Bytes.toBytes("live");
  private static final byte[] POINTER_COLUMN = Bytes.toBytes("table");

  private final BenchContext ctx;
  private TableName[] tables;
  private TableName pointer;
  private int live;

  TwoTableReplace(BenchContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public String name() {
    return "two tables + pointer";
  }

  @Override
  public String description() {
    return "tables A and B and a pointer row naming the live one; a replacement truncates the standby table "
        + "(`disableTable` + `truncateTable`), writes it with a `BufferedMutator`, then puts the pointer. "
        + "Reader: get the pointer, then a multi-get from the table it names.";
  }

  @Override
  public void setUp(long rows, int label) throws IOException {
    String base = ctx.name("replace_two");
    tables = new TableName[] {ctx.tables().create(base + "_a"), ctx.tables().create(base + "_b")};
    pointer = ctx.tables().create(base + "_pointer");
    live = 0;
    PlainOps.write(ctx.connection(), tables[live], rows, label);
    flip(live);
  }

  @Override
  public void replace(long rows, int label) throws IOException {
    int standby = 1 - live;
    try (Admin admin = ctx.connection().getAdmin()) {
      admin.disableTable(tables[standby]);
      admin.truncateTable(tables[standby], true);
    }
    PlainOps.write(ctx.connection(), tables[standby], rows, label);
    flip(standby);
  }

  private void flip(int to) throws IOException {
    try (Table t = ctx.connection().getTable(pointer)) {
      t.put(new Put(POINTER_ROW).addColumn(RowData.FAMILY_BYTES, POINTER_COLUMN, tables[to].toBytes()));
    }
    live = to;
  }

  @Override
  public ReadSample read(List<byte[]> keys) throws IOException {
    TableName current;
    try (Table t = ctx.connection().getTable(pointer)) {
      Result r = t.get(new Get(POINTER_ROW));
      current = TableName.valueOf(r.getValue(RowData.FAMILY_BYTES, POINTER_COLUMN));
    }
    // a reader that read the pointer just before a flip may find the old table being truncated:
    // the failed read is counted as an error by the caller
    return PlainOps.multiGet(ctx.connection(), current, keys);
  }

  @Override
  public Storage storage() throws IOException {
    return PlainOps.storage(ctx, List.of(tables[0], tables[1]));
  }

  @Override
  public void close() throws IOException {
    if (tables != null) {
      ctx.tables().drop(tables[0]);
      ctx.tables().drop(tables[1]);
      ctx.tables().drop(pointer);
    }
  }
}
