package io.snapds.dataset.store;

import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.Transaction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The client-side visibility filtering of every metadata read ({@link TxMetaTable#observe}): a
 * snapshot record of 14 columns, each with 3 versions (the newest written by a transaction still
 * in progress, so invisible), against taking the newest version of each column without any
 * visibility decision (what a plain HBase reader of one version gets from the server).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MetadataVisibilityBenchmark {
  private static final byte[] FAMILY = MetadataLayout.FAMILY;
  private Result record;
  private TxMetaTable table;

  @Setup
  public void setUp() {
    long base = 1_796_000_000_000_000_000L;
    long inProgress = base + 30;
    byte[] row = Bytes.add(new byte[] {'n'}, Bytes.toBytes(base));
    Cell[] cells = new Cell[14 * 3];
    int i = 0;
    for (int c = 0; c < 14; c++) {
      byte[] q = Bytes.toBytes(String.format("col%02d", c));
      // newest first within a column, as HBase returns them
      cells[i++] = new KeyValue(row, FAMILY, q, inProgress, new byte[24]);
      cells[i++] = new KeyValue(row, FAMILY, q, base + 20, new byte[24]);
      cells[i++] = new KeyValue(row, FAMILY, q, base + 10, new byte[24]);
    }
    record = Result.create(cells);
    table = new TxMetaTable(null, TableName.valueOf("bench.meta"), new LongAdder(), new LongAdder(), new LongAdder(), false);
    table.startTx(new Transaction(base + 25, base + 40, new long[0], new long[] {inProgress}, inProgress));
  }

  /** The baseline: the newest version of each column, no visibility decision. */
  @Benchmark
  public NavigableMap<byte[], byte[]> newestVersionPerColumn() {
    NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (Cell c : record.rawCells()) {
      byte[] q = CellUtil.cloneQualifier(c);
      if (!cols.containsKey(q)) {
        cols.put(q, CellUtil.cloneValue(c));
      }
    }
    return cols;
  }

  /** Ours: the newest version each column has that the transaction may see. */
  @Benchmark
  public NavigableMap<byte[], byte[]> visibleColumns() {
    return table.observe(record);
  }
}
