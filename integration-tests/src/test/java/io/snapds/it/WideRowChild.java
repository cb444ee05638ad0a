package io.snapds.it;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRowWriter;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.tx.LocalTransactionService;
import java.io.File;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A client process with a small heap that writes one wide row into a snapshot another process
 * began, as a MapReduce task does. Started by {@link SmallerPromisesIT}:
 * <pre>
 * WideRowChild ZK_QUORUM ZK_PORT DATASET SNAPSHOT_ID CELLS VALUE_BYTES BUFFER_BYTES TX_STATE_DIR
 * </pre>
 * It prints {@code WROTE cells=..} when the writer closed.
 */
public final class WideRowChild {
  static final byte[] KEY = "wide".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private WideRowChild() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", args[0]);
    conf.set("hbase.zookeeper.property.clientPort", args[1]);
    DatasetId id = DatasetId.parse(args[2]);
    SnapshotId snapshot = SnapshotId.parse(args[3]);
    int cells = Integer.parseInt(args[4]);
    int valueBytes = Integer.parseInt(args[5]);
    long buffer = Long.parseLong(args[6]);
    try (Connection connection = ConnectionFactory.createConnection(conf);
        LocalTransactionService tx = LocalTransactionService.persistent(new File(args[7]), conf);
        SnapshotRowWriter writer = SnapshotDatasets.using(connection, tx.client()).open(id)
            .openRowWriter(snapshot, buffer)) {
      for (int i = 0; i < cells; i++) {
        writer.put(KEY, "d", qualifier(i), value(i, valueBytes));
      }
    }
    System.out.println("WROTE cells=" + cells);
  }

  /** Qualifiers sort as the cell numbers do. */
  static byte[] qualifier(int i) {
    return ByteBuffer.allocate(Integer.BYTES).putInt(i).array();
  }

  static byte[] value(int i, int valueBytes) {
    byte[] v = new byte[valueBytes];
    for (int j = 0; j < valueBytes; j++) {
      v[j] = (byte) (i * 31 + j);
    }
    return v;
  }

  /** A checksum over qualifiers and values in cell order. */
  static void update(CRC32 crc, byte[] qualifier, byte[] value) {
    crc.update(qualifier);
    crc.update(value);
  }
}
