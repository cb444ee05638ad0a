package io.snapds.it.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.mapreduce.SnapshotInputFormatImpl;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.read.SnapshotSelector;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Settings and Writables of the MapReduce adapters, without a cluster. */
class SnapshotMapReduceSettingsTest {
  private static final DatasetId DATASET = DatasetId.of("t", "settings");

  @Test
  void rowWritableRoundTripsKeyFamiliesAndBinaryValues() throws IOException {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    NavigableMap<byte[], byte[]> d = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    d.put(Bytes.toBytes("a"), new byte[] {0, -1, 7});
    d.put(Bytes.toBytes("b"), new byte[0]);
    cells.put(Bytes.toBytes("d"), d);
    NavigableMap<byte[], byte[]> e = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    e.put(new byte[] {(byte) 0xFF}, Bytes.toBytes(42L));
    cells.put(Bytes.toBytes("e"), e);
    SnapshotRow row = new SnapshotRow(new byte[] {1, 0, 2}, cells);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new SnapshotRowWritable(row).write(new DataOutputStream(bytes));
    SnapshotRowWritable read = new SnapshotRowWritable();
    read.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));

    assertEquals(row, read.get());
  }

  @Test
  void emptyRowWritableSaysSo() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> new SnapshotRowWritable().get());
    assertEquals("no row set", e.getMessage());
  }

  @Test
  void selectorRoundTripsThroughTheConfiguration() {
    Configuration conf = new Configuration(false);
    for (SnapshotSelector s : new SnapshotSelector[] {SnapshotSelector.current(),
        SnapshotSelector.snapshot(SnapshotId.of(42)), SnapshotSelector.tag("gold"),
        SnapshotSelector.asOf(Instant.ofEpochMilli(1234567))}) {
      SnapshotInputFormatImpl.setInput(conf, DATASET, s);
      assertEquals(s, SnapshotInputFormatImpl.selector(conf));
      assertEquals(DATASET, SnapshotInputFormatImpl.dataset(conf));
    }
  }

  @Test
  void conflictingOrMissingSettingsNameTheSetting() {
    Configuration conf = new Configuration(false);
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> SnapshotInputFormatImpl.dataset(conf));
    assertTrue(none.getMessage().contains(SnapshotInputFormatImpl.DATASET), none.getMessage());

    conf.set(SnapshotInputFormatImpl.SNAPSHOT, "7");
    conf.set(SnapshotInputFormatImpl.AS_OF, "8");
    IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
        () -> SnapshotInputFormatImpl.selector(conf));
    assertEquals("both snapds.mapreduce.input.snapshot (7) and snapds.mapreduce.input.asof.ms (8) are set: pick one",
        both.getMessage());

    conf.unset(SnapshotInputFormatImpl.AS_OF);
    conf.set(SnapshotInputFormatImpl.TAG, "gold");
    IllegalArgumentException tagAndId = assertThrows(IllegalArgumentException.class,
        () -> SnapshotInputFormatImpl.selector(conf));
    assertEquals("both snapds.mapreduce.input.tag (gold) and snapds.mapreduce.input.snapshot (7) are set: pick one",
        tagAndId.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SnapshotSelector.tag(""));

    IllegalArgumentException column = assertThrows(IllegalArgumentException.class,
        () -> SnapshotInputFormatImpl.setColumns(conf, "d", ":q"));
    assertEquals("invalid column ':q': use 'family' or 'family:qualifier'", column.getMessage());

    IllegalArgumentException caching = assertThrows(IllegalArgumentException.class,
        () -> SnapshotInputFormatImpl.setScanCaching(conf, 0));
    assertEquals("scan caching must be >= 1, got 0", caching.getMessage());
  }
}
