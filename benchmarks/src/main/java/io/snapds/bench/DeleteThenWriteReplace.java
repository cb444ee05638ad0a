package io.snapds.bench;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/** Baseline: one plain table; delete every row (scan + batched deletes), then write the new rows. */
final class DeleteThenWriteReplace implements ReplaceStrategy {
  private final BenchContext ctx;
  private TableName table;

  DeleteThenWriteReplace(BenchContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public String name() {
    return "delete all, then write";
  }

  @Override
  public String description() {
    return "one plain table; scan its keys and delete them in batches of " + PlainOps.DELETE_BATCH
        + ", then write the new rows with a `BufferedMutator` (no transactions: what people do without them). "
        + "Reader: a multi-get.";
  }

  @Override
  public void setUp(long rows, int label) throws IOException {
    table = ctx.tables().create(ctx.name("replace_delete"));
    PlainOps.write(ctx.connection(), table, rows, label);
  }

  @Override
  public void replace(long rows, int label) throws IOException {
    PlainOps.scanAndDelete(ctx.connection(), table);
    PlainOps.write(ctx.connection(), table, rows, label);
  }

  @Override
  public ReadSample read(List<byte[]> keys) throws IOException {
    return PlainOps.multiGet(ctx.connection(), table, keys);
  }

  @Override
  public Storage storage() throws IOException {
    return PlainOps.storage(ctx, List.of(table));
  }

  @Override
  public void close() throws IOException {
    if (table != null) {
      ctx.tables().drop(table);
    }
  }
}
