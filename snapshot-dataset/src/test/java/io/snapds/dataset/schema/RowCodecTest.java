package io.snapds.dataset.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.SnapshotRow;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RowCodecTest {
  private static final Schema ALL = Schema.parse("id long key, flag boolean, n int, f float, d double, s string, "
      + "b bytes, price decimal(10,2), day date, at timestamp, seen timestamptz not null");
  private final RowCodec codec = new RowCodec(ALL, "d");

  @Test
  void everyTypeRoundTripsThroughARow() {
    Map<String, Object> in = new HashMap<>();
    in.put("id", Long.MIN_VALUE);
    in.put("flag", true);
    in.put("n", Integer.MIN_VALUE);
    in.put("f", Float.NaN);
    in.put("d", -0.0d);
    in.put("s", "z\u0000\u00e9");
    in.put("b", new byte[] {0, 1});
    in.put("price", new BigDecimal("-99999999.99"));
    in.put("day", LocalDate.of(1900, 1, 1));
    in.put("at", LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_000));
    in.put("seen", Instant.parse("2026-12-01T23:00:00.000001Z"));
    SnapshotRow row = codec.encode(in);
    assertArrayEquals(codec.rowKey(List.of(Long.MIN_VALUE)), row.key());
    assertEquals(10, row.columnCount()); // the key is not a cell
    assertArrayEquals(Bytes.toBytes(Integer.MIN_VALUE), row.value("d", "n"));
    SchemaRecord out = codec.decode(row);
    assertEquals(SchemaRecord.of(ALL, in), out);
    assertEquals(Long.MIN_VALUE, out.getLong("id"));
    assertEquals(new BigDecimal("-99999999.99"), out.getDecimal("price"));
    assertEquals(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_000), out.getTimestamp("at"));
    assertTrue(Float.isNaN(out.getFloat("f")));
    assertEquals(Double.doubleToRawLongBits(-0.0d), Double.doubleToRawLongBits(out.getDouble("d")));
  }

  @Test
  void nullsHaveNoCellAndReadBackAsNull() {
    SnapshotRow row = codec.encode(Map.of("id", 7L, "seen", Instant.EPOCH));
    assertEquals(1, row.columnCount());
    SchemaRecord r = codec.decode(row);
    assertNull(r.getString("s"));
    assertTrue(r.isNull("price"));
    assertEquals(Instant.EPOCH, r.getInstant("seen"));
  }

  @Test
  void aRowOfOnlyKeyAndNullsKeepsOneEmptyCellSoThatItExists() {
    RowCodec keyed = new RowCodec(Schema.parse("id long key, s string"), "d");
    SnapshotRow row = keyed.encode(Map.of("id", 7L));
    assertEquals(1, row.columnCount(), "a row without cells would not be written at all");
    assertArrayEquals(new byte[0], row.value(Bytes.toBytes("d"), new byte[0]));
    assertEquals(SchemaRecord.of(keyed.schema(), Map.of("id", 7L)), keyed.decode(row));
    assertEquals(1, new RowCodec(Schema.parse("id long key"), "d").encode(Map.of("id", 1L)).columnCount());
    assertEquals(1, keyed.encode(Map.of("id", 7L, "s", "x")).columnCount(), "no marker beside a real cell");
  }

  @Test
  void badRecordsAreRefusedNamingFieldAndValue() {
    InvalidValueException nullKey = assertThrows(InvalidValueException.class,
        () -> codec.encode(Map.of("seen", Instant.EPOCH)));
    assertEquals("key field 'id' (long) is null", nullKey.getMessage());
    InvalidValueException missing = assertThrows(InvalidValueException.class, () -> codec.encode(Map.of("id", 1L)));
    assertEquals("seen", missing.field());
    UnknownFieldException unknown = assertThrows(UnknownFieldException.class,
        () -> codec.encode(Map.of("id", 1L, "seen", Instant.EPOCH, "colour", "red")));
    assertEquals("colour", unknown.field());
    assertTrue(unknown.getMessage().startsWith("unknown field 'colour'"), unknown.getMessage());
    InvalidValueException type = assertThrows(InvalidValueException.class,
        () -> codec.encode(Map.of("id", "one", "seen", Instant.EPOCH)));
    assertEquals("value 'one' of field 'id' (long) has the wrong class java.lang.String", type.getMessage());
    InvalidValueException getter = assertThrows(InvalidValueException.class,
        () -> codec.decode(codec.encode(Map.of("id", 1L, "seen", Instant.EPOCH))).getString("id"));
    assertTrue(getter.getMessage().contains("field 'id' is long, not String"), getter.getMessage());
  }

  @Test
  void aCorruptCellNamesItsField() {
    SnapshotRow good = codec.encode(Map.of("id", 1L, "seen", Instant.EPOCH));
    java.util.NavigableMap<byte[], byte[]> cells = new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
    cells.put(Bytes.toBytes("seen"), new byte[] {1, 2});
    java.util.NavigableMap<byte[], java.util.NavigableMap<byte[], byte[]>> families =
        new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(Bytes.toBytes("d"), cells);
    SnapshotRow bad = new SnapshotRow(good.key(), families);
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> codec.decode(bad));
    assertEquals("seen", e.field());
  }
}
