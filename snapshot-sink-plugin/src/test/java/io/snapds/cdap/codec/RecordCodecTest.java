package io.snapds.cdap.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.cdap.AllTypes;
import io.snapds.dataset.SnapshotRow;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
  private static final RecordCodec WRITE = RecordCodec.forWriting(AllTypes.SCHEMA, "d", List.of("region", "id"));
  private static final RecordCodec READ = RecordCodec.forReading(AllTypes.SCHEMA, "d");

  @Test
  void everySchemaTypeRoundTripsRecordToRowToRecord() {
    for (int i = 0; i < 8; i++) {
      StructuredRecord record = AllTypes.record(i);
      SnapshotRow row = WRITE.toRow(record);
      StructuredRecord back = READ.fromRow(row);
      assertEquals(AllTypes.normalize(record), AllTypes.normalize(back), "record " + i);
      // logical types read back through CDAP's own accessors too
      assertEquals(record.getDecimal("amount"), back.getDecimal("amount"));
      assertEquals(record.getTimestamp("ts_us"), back.getTimestamp("ts_us"));
      assertEquals(record.getDate("day"), back.getDate("day"));
      assertEquals(record.getTime("t_ms"), back.getTime("t_ms"));
      assertEquals(record.getDateTime("dt"), back.getDateTime("dt"));
    }
  }

  @Test
  void nullFieldsWriteNoCellAndReadBackAsNull() {
    StructuredRecord withNulls = AllTypes.record(1);
    SnapshotRow row = WRITE.toRow(withNulls);
    assertNull(row.value("d", "n_s"));
    assertNull(row.value("d", "n_address"));
    assertEquals(AllTypes.SCHEMA.getFields().size() - 5, row.columnCount());
    StructuredRecord back = READ.fromRow(row);
    assertNull(back.get("n_s"));
    assertNull(back.get("n_amount"));
  }

  @Test
  void cellsHaveTheDocumentedEncoding() {
    StructuredRecord r = AllTypes.record(4);
    SnapshotRow row = WRITE.toRow(r);
    assertArrayEquals(Bytes.toBytes((long) r.get("id")), row.value("d", "id"));
    assertArrayEquals(Bytes.toBytes((int) r.get("i")), row.value("d", "i"));
    assertArrayEquals(((String) r.get("s")).getBytes(StandardCharsets.UTF_8), row.value("d", "s"));
    assertArrayEquals(new byte[] {1}, row.value("d", "flag"));
    assertEquals(new BigDecimal("-123456785.123"),
        new BigDecimal(new java.math.BigInteger(row.value("d", "amount")), 3));
    assertEquals("[4,-4,2147483647]", Bytes.toString(row.value("d", "ints")));
    assertEquals("{\"clicks 4\":-1,\"views\":28}", Bytes.toString(row.value("d", "counts")));
    assertEquals("[[4,\"4.25\"],[-5,\"-0.01\"]]", Bytes.toString(row.value("d", "by_number")));
    assertEquals("{\"street\":\"4 Main St\",\"zip\":null,\"tags\":[\"t4\",\"\"]}",
        Bytes.toString(row.value("d", "address")));
    assertEquals("[\"eA==\",\"\"]", Bytes.toString(row.value("d", "byte_list")));
    assertEquals("[0.4,\"NaN\",\"Infinity\",-0.0]", Bytes.toString(row.value("d", "doubles")));
  }

  @Test
  void rowKeyIsTheKeyFieldsInOrderPreservingEncoding() {
    StructuredRecord r = AllTypes.record(3); // region "eu", id 3*1000003-500
    byte[] expected = Bytes.add(new byte[] {'e', 'u', 0, 1}, Bytes.toBytes(3_000_009L - 500 ^ Long.MIN_VALUE));
    assertArrayEquals(expected, WRITE.toRow(r).key());
  }

  @Test
  void aNullKeyFieldIsRejectedNamingTheField() {
    Schema schema = Schema.recordOf("r", Schema.Field.of("k", Schema.nullableOf(Schema.of(Schema.Type.STRING))),
        Schema.Field.of("v", Schema.of(Schema.Type.INT)));
    RecordCodec codec = RecordCodec.forWriting(schema, "d", List.of("k"));
    StructuredRecord r = StructuredRecord.builder(schema).set("v", 1).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.toRow(r));
    assertEquals("row key field 'k' is null", e.getMessage());
  }

  @Test
  void aMissingCellOfANonNullableFieldIsRejectedNamingFieldAndRow() {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(Bytes.toBytes("d"), new TreeMap<>(Bytes.BYTES_COMPARATOR));
    SnapshotRow empty = new SnapshotRow(Bytes.toBytes("row1"), families);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> READ.fromRow(empty));
    assertEquals("field 'region' is not nullable, but row row1 has no cell d:region", e.getMessage());
  }

  @Test
  void aCellOfTheWrongSizeIsRejectedNamingFieldAndRow() {
    Schema schema = Schema.recordOf("r", Schema.Field.of("n", Schema.of(Schema.Type.INT)));
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    cells.put(Bytes.toBytes("n"), new byte[] {1, 2});
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(Bytes.toBytes("d"), cells);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RecordCodec.forReading(schema, "d").fromRow(new SnapshotRow(Bytes.toBytes("k"), families)));
    assertEquals("field 'n' of row k: a int cell must have 4 bytes, got 2", e.getMessage());
  }

  @Test
  void unsupportedSchemasAreRejectedNamingTheField() {
    Schema union = Schema.recordOf("r", Schema.Field.of("k", Schema.of(Schema.Type.STRING)),
        Schema.Field.of("either", Schema.unionOf(Schema.of(Schema.Type.INT), Schema.of(Schema.Type.STRING))));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RecordCodec.forWriting(union, "d", List.of("k")));
    assertTrue(e.getMessage().startsWith("field 'either': union"), e.getMessage());

    Schema mapKey = Schema.recordOf("r", Schema.Field.of("m", Schema.mapOf(Schema.of(Schema.Type.STRING),
        Schema.of(Schema.Type.INT))));
    e = assertThrows(IllegalArgumentException.class, () -> RecordCodec.forWriting(mapKey, "d", List.of("m")));
    assertTrue(e.getMessage().startsWith("row key field 'm': map is not supported in a row key"), e.getMessage());

    e = assertThrows(IllegalArgumentException.class, () -> RecordCodec.forWriting(mapKey, "d", List.of("nope")));
    assertEquals("row key field 'nope' is not in the schema", e.getMessage());
  }

  @Test
  void valuesThatDoNotFitTheirSchemaAreRejectedNamingTheField() {
    Schema schema = Schema.recordOf("r", Schema.Field.of("k", Schema.of(Schema.Type.STRING)),
        Schema.Field.of("list", Schema.arrayOf(Schema.of(Schema.Type.INT))));
    RecordCodec codec = RecordCodec.forWriting(schema, "d", List.of("k"));
    StructuredRecord r = StructuredRecord.builder(schema).set("k", "x").set("list", Map.of("not", "a list")).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.toRow(r));
    assertTrue(e.getMessage().startsWith("field 'list': expected a collection or an array"), e.getMessage());
  }

  @Test
  void bytesValuesAreCopiedFromByteBuffersWithoutMovingThem() {
    Schema schema = Schema.recordOf("r", Schema.Field.of("k", Schema.of(Schema.Type.BYTES)));
    ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 8, 7});
    buffer.get();
    StructuredRecord r = StructuredRecord.builder(schema).set("k", buffer).build();
    SnapshotRow row = RecordCodec.forWriting(schema, "d", List.of("k")).toRow(r);
    assertArrayEquals(new byte[] {8, 7}, row.value("d", "k"));
    assertEquals(1, buffer.position());
  }
}
