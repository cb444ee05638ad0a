package io.snapds.dataset;

import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.RowKeys;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The snapshot prefix on the key: adding it (every put and get), stripping it (every row read),
 * and turning a {@link RowScan} into the HBase scan of one snapshot (every scan).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KeyEncodingBenchmark {
  private final SnapshotId snapshot = SnapshotId.of(1_796_000_000_000_000_000L);
  private final byte[] userKey = Bytes.toBytes("k0042042");
  private final byte[] rowKey = RowKeys.rowKey(snapshot, userKey);
  private final RowScan prefixScan = RowScan.all().prefix(Bytes.toBytes("k004"));

  /** The baseline: the copy any key concatenation costs. */
  @Benchmark
  public byte[] rawConcat() {
    return Bytes.add(snapshot.toBytes(), userKey);
  }

  @Benchmark
  public byte[] rowKey() {
    return RowKeys.rowKey(snapshot, userKey);
  }

  @Benchmark
  public byte[] userKey() {
    return RowKeys.userKey(rowKey);
  }

  @Benchmark
  public Scan prefixScanToHBase() {
    return DataTable.toHBaseScan(snapshot, prefixScan);
  }
}
