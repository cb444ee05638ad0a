package io.snapds.bench;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.tx.LocalTransactionService;
import java.io.File;
import java.nio.file.Path;
import java.util.Locale;
import jdk.jfr.Recording;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A client process that writes to the mini cluster of the benchmark JVM, so that its heap
 * ({@code -Xmx}) and peak RSS are the writer's alone. Run by {@link ClientJvm}:
 * <pre>
 * WriteProbe snapshot|raw|rawcells|rawlayout NAME ROWS REPETITIONS BUFFER_BYTES ZK_QUORUM ZK_PORT TX_STATE_DIR
 * </pre>
 * An unmeasured write of a few rows comes first (class loading, JIT). Each repetition writes into a fresh dataset (or plain table) that is dropped afterwards, and
 * prints {@code RESULT rep=.. rows=.. seconds=.. beginMs=.. publishMs=.. startMs=.. endMs=..}
 * (the last two: wall-clock bounds of the timed part); the last line is
 * {@code MEMORY peakRss=.. peakHeap=.. maxHeap=..}. A snapshot's time runs from {@code begin()}
 * to {@code commit()} returning; {@code publishMs} is {@code commit()} alone, after a flush.
 * The raw time runs from opening the {@link BufferedMutator} to its close (its last flush);
 * {@code rawcells} sends one {@code Put} per cell instead of one per row, {@code rawlayout} one
 * per row with the snapshot writer's key prefix and timestamps (diagnostics).
 */
public final class WriteProbe {
  /** When set, the first repetition is recorded with JFR into this file. */
  static final String JFR_PROPERTY = "bench.jfr";
  private static final long WARMUP_ROWS = 2_000;

  private WriteProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 8) {
      throw new IllegalArgumentException("usage: WriteProbe snapshot|raw|rawcells|rawlayout NAME ROWS REPETITIONS BUFFER_BYTES "
          + "ZK_QUORUM ZK_PORT TX_STATE_DIR; got " + String.join(" ", args));
    }
    String mode = args[0];
    String name = args[1];
    long rows = Long.parseLong(args[2]);
    int reps = Integer.parseInt(args[3]);
    long buffer = Long.parseLong(args[4]);
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", args[5]);
    conf.set("hbase.zookeeper.property.clientPort", args[6]);
    Recording recording = null;
    try (Connection connection = ConnectionFactory.createConnection(conf);
        LocalTransactionService tx = LocalTransactionService.persistent(new File(args[7]), conf)) {
      // unmeasured: class loading and JIT of the write path, so that a single run is not a cold one
      write(mode, connection, tx, name + "_warmup", WARMUP_ROWS, buffer);
      for (int rep = 1; rep <= reps; rep++) {
        if (rep == 1 && System.getProperty(JFR_PROPERTY) != null) {
          recording = new Recording(jdk.jfr.Configuration.getConfiguration("profile"));
          recording.setDestination(Path.of(System.getProperty(JFR_PROPERTY)));
          recording.start(); // records the first repetition (its dataset's creation and drop too)
        }
        String line = write(mode, connection, tx, name + "_" + rep, rows, buffer);
        if (recording != null) {
          recording.stop();
          recording.close();
          recording = null;
        }
        System.out.println("RESULT rep=" + rep + " rows=" + rows + " " + line);
      }
    }
    System.out.println("MEMORY peakRss=" + ProcessMemory.peakRssBytes() + " peakHeap=" + ProcessMemory.peakHeapBytes()
        + " maxHeap=" + Runtime.getRuntime().maxMemory());
  }

  private static String write(String mode, Connection connection, LocalTransactionService tx, String name,
      long rows, long buffer) throws Exception {
    return switch (mode) {
      case "snapshot" -> snapshot(connection, tx, name, rows, buffer);
      case "raw", "rawcells", "rawlayout" -> raw(connection, name, rows, buffer, mode);
      default -> throw new IllegalArgumentException("mode must be snapshot, raw, rawcells or rawlayout, got '"
          + mode + "'");
    };
  }

  private static String snapshot(Connection connection, LocalTransactionService tx, String name, long rows,
      long buffer) {
    SnapshotDatasets datasets = SnapshotDatasets.using(connection, tx.client());
    DatasetId id = DatasetId.of(PlainTables.NAMESPACE, name);
    SnapshotDataset dataset = datasets.create(id, DatasetProperties.defaults());
    try {
      long startMs = System.currentTimeMillis();
      long start = System.nanoTime();
      long begun;
      long flushed;
      try (SnapshotWriter writer = dataset.newSnapshot().writeBufferBytes(buffer).begin()) {
        begun = System.nanoTime();
        RowData.write(writer, 1, rows);
        writer.flush();
        flushed = System.nanoTime();
        writer.commit();
      }
      long end = System.nanoTime();
      return String.format(Locale.ROOT, "seconds=%.3f beginMs=%.3f publishMs=%.3f startMs=%d endMs=%d",
          (end - start) / 1e9, (begun - start) / 1e6, (end - flushed) / 1e6, startMs, System.currentTimeMillis());
    } finally {
      datasets.admin(id).drop();
    }
  }

  private static String raw(Connection connection, String name, long rows, long buffer, String mode)
      throws Exception {
    PlainTables tables = new PlainTables(connection);
    TableName table = tables.create(name);
    try {
      long startMs = System.currentTimeMillis();
      long start = System.nanoTime();
      try (BufferedMutator mutator = connection.getBufferedMutator(
          new BufferedMutatorParams(table).writeBufferSize(buffer))) {
        switch (mode) {
          case "rawcells" -> RowData.writePerCell(mutator, 1, rows);
          case "rawlayout" -> RowData.writeSnapshotLayout(mutator, RowData.firstSnapshotPrefix(), 1, rows);
          default -> RowData.write(mutator, 1, rows);
        }
      }
      long end = System.nanoTime();
      return String.format(Locale.ROOT, "seconds=%.3f beginMs=0 publishMs=0 startMs=%d endMs=%d", (end - start) / 1e9,
          startMs, System.currentTimeMillis());
    } finally {
      tables.drop(table);
    }
  }
}
