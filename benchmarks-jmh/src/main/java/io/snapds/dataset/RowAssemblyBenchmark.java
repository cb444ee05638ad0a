package io.snapds.dataset;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The writer's work per row before HBase sees it: {@link SnapshotRowWriter} collecting 10
 * {@code put(key, family, qualifier, value)} calls into one {@code Put} (checks, key prefix,
 * counter timestamps), against a raw client building the same {@code Put} itself. Both hand the
 * Put to a mutator that only keeps it from being optimized away, so the figure is the client's
 * assembly alone, without the RPC.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RowAssemblyBenchmark {
  private static final int COLUMNS = 10;
  private static final byte[] FAMILY = Bytes.toBytes("d");
  private final byte[][] qualifiers = new byte[COLUMNS][];
  private final byte[][] values = new byte[COLUMNS][];
  private byte[][] keys;
  private SnapshotRowWriter writer;
  private Blackhole sink;
  private int next;

  @Setup
  public void setUp(Blackhole blackhole) {
    sink = blackhole;
    for (int c = 0; c < COLUMNS; c++) {
      qualifiers[c] = Bytes.toBytes("c" + c);
      values[c] = new byte[20];
    }
    keys = new byte[1024][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = Bytes.toBytes(String.format("k%07d", i));
    }
    writer = new SnapshotRowWriter(DatasetId.of("jmh", "rows"), new Discarding(blackhole),
        SnapshotKeys.numbered(SnapshotId.of(1_796_000_000_000_000_000L), 300), // a new dataset's 300th snapshot
        Set.of("d"), 10_485_760L, 4L << 20);
  }

  private byte[] nextKey() {
    byte[] k = keys[next];
    next = (next + 1) % keys.length;
    return k;
  }

  /** The baseline: one Put per row with its 10 cells, as the raw benchmark writer builds it. */
  @Benchmark
  public void rawPut() {
    Put p = new Put(nextKey());
    for (int c = 0; c < COLUMNS; c++) {
      p.addColumn(FAMILY, qualifiers[c], values[c]);
    }
    sink.consume(p);
  }

  /** Ours: 10 cell puts of one key; the row's Put goes out when the next row's key arrives. */
  @Benchmark
  public void snapshotWriterRow() {
    byte[] key = nextKey();
    for (int c = 0; c < COLUMNS; c++) {
      writer.put(key, "d", qualifiers[c], values[c]);
    }
  }

  /** A mutator that hands every mutation to JMH's black hole and sends nothing. */
  private static final class Discarding implements BufferedMutator {
    private final Blackhole sink;

    Discarding(Blackhole sink) {
      this.sink = sink;
    }

    @Override
    public TableName getName() {
      return TableName.valueOf("jmh");
    }

    @Override
    public Configuration getConfiguration() {
      return new Configuration(false);
    }

    @Override
    public void mutate(Mutation mutation) {
      sink.consume(mutation);
    }

    @Override
    public void mutate(List<? extends Mutation> mutations) {
      sink.consume(mutations);
    }

    @Override
    public void close() {}

    @Override
    public void flush() {}

    @Override
    public long getWriteBufferSize() {
      return 4L << 20;
    }
  }
}
