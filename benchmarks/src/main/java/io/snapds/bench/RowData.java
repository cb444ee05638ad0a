package io.snapds.bench;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The rows every benchmark writes: key {@code k0000042}, 10 columns {@code d:c0..c9} of 20 bytes.
 * A value carries the version (label) that wrote it and its row, so a reader can tell a torn read
 * (rows of two versions) from a complete one.
 */
final class RowData {
  static final String FAMILY = "d";
  static final byte[] FAMILY_BYTES = Bytes.toBytes(FAMILY);
  static final int COLUMNS = 10;
  static final int VALUE_BYTES = 20;
  private static final byte[][] QUALIFIERS = new byte[COLUMNS][];

  static {
    for (int c = 0; c < COLUMNS; c++) {
      QUALIFIERS[c] = Bytes.toBytes("c" + c);
    }
  }

  private RowData() {}

  static byte[] key(long row) {
    return Bytes.toBytes(String.format("k%07d", row));
  }

  static byte[] qualifier(int column) {
    return QUALIFIERS[column];
  }

  /** 20 bytes: label (4), row (8), column (4), padding (4). */
  static byte[] value(int label, long row, int column) {
    byte[] v = new byte[VALUE_BYTES];
    Bytes.putInt(v, 0, label);
    Bytes.putLong(v, 4, row);
    Bytes.putInt(v, 12, column);
    return v;
  }

  static int label(byte[] value) {
    return Bytes.toInt(value, 0);
  }

  /** Rows {@code [0, rows)} into a snapshot, one cell per put, as the writer's API takes them. */
  static void write(SnapshotWriter writer, int label, long rows) {
    for (long r = 0; r < rows; r++) {
      byte[] key = key(r);
      for (int c = 0; c < COLUMNS; c++) {
        writer.put(key, FAMILY, QUALIFIERS[c], value(label, r, c));
      }
    }
  }

  /** The raw baseline: one {@link Put} per row with its 10 cells, as a plain HBase client does. */
  static Put put(int label, long row) {
    return put(key(row), label, row);
  }

  /** The same cells under another row key (a job's own copy). */
  static Put put(byte[] rowKey, int label, long row) {
    Put p = new Put(rowKey);
    for (int c = 0; c < COLUMNS; c++) {
      p.addColumn(FAMILY_BYTES, QUALIFIERS[c], value(label, row, c));
    }
    return p;
  }

  /** A diagnostic baseline: one {@link Put} per cell, the way the snapshot writer sends cells. */
  static void writePerCell(BufferedMutator mutator, int label, long rows) throws IOException {
    for (long r = 0; r < rows; r++) {
      byte[] key = key(r);
      for (int c = 0; c < COLUMNS; c++) {
        mutator.mutate(new Put(key).addColumn(FAMILY_BYTES, QUALIFIERS[c], value(label, r, c)));
      }
    }
  }

  /**
   * A diagnostic baseline: one {@link Put} per row, but with the snapshot writer's layout:
   * {@code prefix} (a snapshot's key prefix) before the key, and explicit timestamps from a counter.
   */
  static void writeSnapshotLayout(BufferedMutator mutator, byte[] prefix, int label, long rows) throws IOException {
    long ts = 0;
    for (long r = 0; r < rows; r++) {
      Put p = new Put(Bytes.add(prefix, key(r)));
      for (int c = 0; c < COLUMNS; c++) {
        p.addColumn(FAMILY_BYTES, QUALIFIERS[c], ++ts, value(label, r, c));
      }
      mutator.mutate(p);
    }
  }

  /** The key prefix of a fresh dataset's first snapshot (key number 1): what a write repetition's rows carry. */
  static byte[] firstSnapshotPrefix() {
    return SnapshotKeys.numbered(SnapshotId.of(1), 1).prefix();
  }

  static void write(BufferedMutator mutator, int label, long rows) throws IOException {
    for (long r = 0; r < rows; r++) {
      mutator.mutate(put(label, r));
    }
  }
}
