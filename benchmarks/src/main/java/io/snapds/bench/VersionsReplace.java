package io.snapds.bench;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/** Baseline: one plain table keeping several cell versions; overwrite the rows, readers read the latest. */
final class VersionsReplace implements ReplaceStrategy {
  private final BenchContext ctx;
  private TableName table;

  VersionsReplace(BenchContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public String name() {
    return "HBase cell versions";
  }

  @Override
  public String description() {
    return "one plain table with `VERSIONS => " + SnapshotReplace.RETAIN + "` (as many as our retention keeps); "
        + "each version overwrites the same rows with a `BufferedMutator`. Reader: a multi-get of the latest "
        + "versions.";
  }

  @Override
  public void setUp(long rows, int label) throws IOException {
    table = ctx.tables().create(ctx.name("replace_versions"), SnapshotReplace.RETAIN);
    PlainOps.write(ctx.connection(), table, rows, label);
  }

  @Override
  public void replace(long rows, int label) throws IOException {
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
