package io.snapds.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;

/** What the baselines do with plain tables, written the way an HBase user would. */
final class PlainOps {
  static final long BUFFER = 4L << 20;
  static final int DELETE_BATCH = 1000;

  private PlainOps() {}

  static void write(Connection c, TableName table, long rows, int label) throws IOException {
    try (BufferedMutator m = c.getBufferedMutator(new BufferedMutatorParams(table).writeBufferSize(BUFFER))) {
      RowData.write(m, label, rows);
    }
  }

  /** Scans the row keys and deletes them in batches; returns how many rows it deleted. */
  static long scanAndDelete(Connection c, TableName table) throws IOException {
    Scan keysOnly = new Scan().setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
        .setCaching(DELETE_BATCH).setCacheBlocks(false);
    long deleted = 0;
    try (Table t = c.getTable(table); ResultScanner rs = t.getScanner(keysOnly)) {
      List<Delete> batch = new ArrayList<>(DELETE_BATCH);
      for (Result r : rs) {
        batch.add(new Delete(r.getRow()));
        if (batch.size() == DELETE_BATCH) {
          deleted += batch.size();
          t.delete(batch);
          batch = new ArrayList<>(DELETE_BATCH);
        }
      }
      deleted += batch.size();
      t.delete(batch);
    }
    return deleted;
  }

  /** Deletes rows whose keys the caller knows, through a buffered mutator: no scan needed. */
  static void deleteKnown(Connection c, TableName table, long rows) throws IOException {
    try (BufferedMutator m = c.getBufferedMutator(new BufferedMutatorParams(table).writeBufferSize(BUFFER))) {
      for (long r = 0; r < rows; r++) {
        m.mutate(new Delete(RowData.key(r)));
      }
    }
  }

  static ReadSample multiGet(Connection c, TableName table, List<byte[]> keys) throws IOException {
    List<Get> gets = new ArrayList<>(keys.size());
    keys.forEach(k -> gets.add(new Get(k)));
    SampleCollector sample = new SampleCollector(keys.size());
    try (Table t = c.getTable(table)) {
      for (Result r : t.get(gets)) {
        sample.add(r);
      }
    }
    return sample.sample();
  }

  static ReplaceStrategy.Storage storage(BenchContext ctx, List<TableName> tables) throws IOException {
    PlainTables counts = ctx.tables();
    PlainTables.Count visible = new PlainTables.Count(0, 0);
    PlainTables.Count stored = new PlainTables.Count(0, 0);
    for (TableName t : tables) {
      visible = visible.plus(counts.countVisible(t));
      stored = stored.plus(counts.countStored(t));
    }
    PlainTables.Count compacted = new PlainTables.Count(0, 0);
    for (TableName t : tables) {
      Compaction.settle(ctx.cluster().util(), t);
      compacted = compacted.plus(counts.countStored(t));
    }
    return new ReplaceStrategy.Storage(visible, stored, compacted);
  }
}
