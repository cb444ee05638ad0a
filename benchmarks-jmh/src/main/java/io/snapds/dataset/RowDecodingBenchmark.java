package io.snapds.dataset;

import io.snapds.dataset.store.DataTable;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The client's work per row read: turning an HBase {@code Result} of the data table (a row of 10
 * columns of 20 bytes, as the benchmarks write) into a {@link SnapshotRow} and reading its values,
 * against reading the {@code Result}'s cells directly (what a raw HBase reader does). Every
 * operation gets a new {@code Result} over the same cells, as a scanner hands out one per row: a
 * {@code Result} keeps what it derives (its row key, for one), so reusing one would hide that work.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RowDecodingBenchmark {
  /** A new dataset's snapshot (metadata format 3): its 300th, a 3-byte prefix. */
  private final SnapshotKeys keys = SnapshotKeys.numbered(SnapshotId.of(1_796_000_000_000_000_000L), 300);
  private Cell[] cells;

  @Setup
  public void setUp() {
    byte[] row = keys.rowKey(Bytes.toBytes("k0042042"));
    cells = new Cell[10];
    for (int c = 0; c < cells.length; c++) {
      cells[c] = new KeyValue(row, Bytes.toBytes("d"), Bytes.toBytes("c" + c), c + 1, new byte[20]);
    }
  }

  /** The baseline: a raw reader sums the value lengths of the {@code Result}'s cells. */
  @Benchmark
  public long rawResultCells() {
    long bytes = 0;
    for (Cell c : Result.create(cells).rawCells()) {
      bytes += c.getValueLength();
    }
    return bytes;
  }

  /** Ours: the data table's conversion (key prefix stripped), then the same sum over {@code cells()}. */
  @Benchmark
  public long snapshotRowCells() {
    SnapshotRow row = DataTable.toRow(keys, Result.create(cells));
    long bytes = 0;
    for (Cell c : row.cells()) {
      bytes += c.getValueLength();
    }
    return bytes;
  }

  /** Ours through one column lookup, {@code value(family, qualifier)} (copies that value). */
  @Benchmark
  public int snapshotRowValue() {
    return DataTable.toRow(keys, Result.create(cells)).value(FAMILY, QUALIFIER).length;
  }

  /** Ours through the family map, built on first use (a copy of every qualifier and value). */
  @Benchmark
  public long snapshotRowFamilies() {
    long bytes = 0;
    for (var cols : DataTable.toRow(keys, Result.create(cells)).families().values()) {
      for (byte[] v : cols.values()) {
        bytes += v.length;
      }
    }
    return bytes;
  }

  private static final byte[] FAMILY = Bytes.toBytes("d");
  private static final byte[] QUALIFIER = Bytes.toBytes("c7");
}
