package io.snapds.it;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.testing.MiniCluster;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionSystemClient;

/**
 * Writes a dataset the way the format 1 library did (the layout before issue #11): properties
 * with {@code format.version=1} and no history horizon, and the transactional rows {@code s},
 * {@code n + id} (every column written), {@code h}, {@code r}, {@code k}, {@code f}, without
 * any of format 2's indexes or counters, in one committed Tephra transaction.
 */
final class OldLayoutBuilder {
  private static final byte[] M = Bytes.toBytes("m");

  /** One snapshot of the old dataset: its data rows carry {@code label}. */
  record Old(SnapshotId id, String state, long committedMillis, long cleanedMillis, String run, String source,
      String tags, int rows, String label) {}

  private final MiniCluster cluster;
  private final DatasetId id;
  private final List<Put> puts = new ArrayList<>();
  private final long ts;
  private final Transaction tx;
  private final TransactionSystemClient txClient;
  private long version;

  OldLayoutBuilder(MiniCluster cluster, DatasetId id) {
    this.cluster = cluster;
    this.id = id;
    this.txClient = cluster.txClient();
    this.tx = txClient.startShort();
    this.ts = tx.getWritePointer();
    // the tables only, as the format 1 library created them: no first metadata commit (CREATED)
    new io.snapds.dataset.admin.CompositeDatasetAdmin(id, cluster.connection()).create(DatasetProperties.defaults());
  }

  private void put(byte[] row, String q, byte[] v) {
    puts.add(new Put(row).addColumn(M, Bytes.toBytes(q), ts, v));
  }

  /** Records {@code s} with every column the old codec wrote, and writes its data rows. */
  OldLayoutBuilder snapshot(Old s) throws Exception {
    byte[] row = Bytes.add(new byte[] {'n'}, s.id().toBytes());
    long checksum = 0;
    List<Put> data = new ArrayList<>();
    SnapshotKeys keys = SnapshotKeys.legacy(s.id()); // format 1: the 8-byte id prefix
    for (int i = 0; i < s.rows(); i++) {
      byte[] value = Bytes.toBytes(s.label() + ":" + i);
      data.add(new Put(keys.rowKey(Fixtures.key(i))).addColumn(Bytes.toBytes("d"), Bytes.toBytes("v"), value));
      checksum += Fixtures.crc(Fixtures.key(i), value);
    }
    try (Table t = cluster.connection().getTable(id.dataTable())) {
      t.put(data);
    }
    put(row, "state", Bytes.toBytes(s.state()));
    put(row, "created", Bytes.toBytes(s.committedMillis() - 1000));
    put(row, "committed", Bytes.toBytes(s.committedMillis()));
    put(row, "rows", Bytes.toBytes((long) s.rows()));
    put(row, "bytes", Bytes.toBytes(10L * s.rows()));
    put(row, "writer", Bytes.toBytes("old-writer"));
    if (s.run() != null) {
      put(row, "run", Bytes.toBytes(s.run()));
      put(Bytes.add(new byte[] {'r'}, Bytes.toBytes(s.run())), "id", s.id().toBytes());
    }
    if (s.source() != null) {
      put(row, "source", Bytes.toBytes(s.source()));
      put(Bytes.add(new byte[] {'k'}, Bytes.toBytes(s.source())), "id", s.id().toBytes());
    }
    if (s.tags() != null) {
      put(row, "tags", Bytes.toBytes(s.tags()));
    }
    put(row, "token", Bytes.toBytes(1L));
    put(row, "cfence", Bytes.toBytes(s.cleanedMillis() == 0 ? 0L : s.id().value() + 1));
    put(row, "summary", Bytes.toBytes("checksum=" + checksum + "\nlabel=" + s.label()));
    if (s.cleanedMillis() != 0) {
      put(row, "cleaned", Bytes.toBytes(s.cleanedMillis()));
    }
    return this;
  }

  /** A history entry (the old key: millis, version, index) making {@code current} current. */
  OldLayoutBuilder history(long millis, SnapshotId current, String reason) {
    version++;
    byte[] row = Bytes.add(Bytes.add(new byte[] {'h'}, Bytes.toBytes(millis)), Bytes.toBytes(version),
        Bytes.toBytes((short) 0));
    put(row, "id", current.toBytes());
    put(row, "reason", Bytes.toBytes(reason));
    put(new byte[] {'s'}, "current", current.toBytes());
    return this;
  }

  /** Writes the rows in the transaction, commits it, and marks the properties as format 1. */
  DatasetId commit() throws Exception {
    put(new byte[] {'s'}, "version", Bytes.toBytes(version));
    put(Bytes.add(new byte[] {'f'}, Bytes.toBytes("writer")), "token", Bytes.toBytes(1L));
    Map<String, byte[]> rows = new TreeMap<>();
    puts.forEach(p -> rows.put(Bytes.toStringBinary(p.getRow()), Bytes.add(id.metaTable().getName(), new byte[] {0}, p.getRow())));
    try (Table t = cluster.connection().getTable(id.metaTable())) {
      t.put(puts);
      txClient.canCommitOrThrow(tx, rows.values());
      txClient.commitOrThrow(tx);
      byte[] p = Bytes.toBytes("p");
      t.put(new Put(p).addColumn(M, Bytes.toBytes("format.version"), Bytes.toBytes("1")));
      t.delete(new Delete(p).addColumns(M, Bytes.toBytes("history.retain.last")));
    }
    return id;
  }

  static long millis(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }
}
