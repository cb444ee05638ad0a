package io.snapds.dataset;

import io.snapds.dataset.store.DataTable;
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
  /** A new dataset's snapshot (metadata format 3): its 300th, a 3-byte prefix. */
  private final SnapshotKeys keys = SnapshotKeys.numbered(snapshot, 300);
  private final byte[] userKey = Bytes.toBytes("k0042042");
  private final byte[] prefix = keys.prefix();
  private final byte[] rowKey = keys.rowKey(userKey);
  private final RowScan prefixScan = RowScan.all().prefix(Bytes.toBytes("k004"));

  /** The baseline: the copy any key concatenation of the same bytes costs. */
  @Benchmark
  public byte[] rawConcat() {
    return Bytes.add(prefix, userKey);
  }

  @Benchmark
  public byte[] rowKey() {
    return keys.rowKey(userKey);
  }

  @Benchmark
  public byte[] userKey() {
    return keys.userKey(rowKey);
  }

  @Benchmark
  public Scan prefixScanToHBase() {
    return DataTable.toHBaseScan(keys, prefixScan);
  }
}
