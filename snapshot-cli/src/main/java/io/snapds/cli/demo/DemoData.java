package io.snapds.cli.demo;

import io.snapds.dataset.SnapshotRow;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The rows a demo job builds for one source key: prices of {@code rows} instruments for a time
 * slice, the same every time the slice is built.
 */
final class DemoData {
  static final String FAMILY = "d";

  private DemoData() {}

  static SnapshotRow row(String sourceKey, int i) {
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    long cents = 1000 + Math.floorMod((sourceKey.hashCode() * 31L + i) * 2654435761L, 100_000L);
    cells.put(Bytes.toBytes("price"), Bytes.toBytes(String.format("%d.%02d", cents / 100, cents % 100)));
    cells.put(Bytes.toBytes("slice"), Bytes.toBytes(sourceKey));
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(Bytes.toBytes(FAMILY), cells);
    return new SnapshotRow(Bytes.toBytes(String.format("instrument-%05d", i)), families);
  }
}
