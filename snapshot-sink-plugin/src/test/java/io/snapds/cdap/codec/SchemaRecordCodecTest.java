package io.snapds.cdap.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.schema.InvalidValueException;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.testing.GoldenRecords;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CDAP leg of the interoperability proof (#15), at the encoding: a golden record, as a CDAP
 * pipeline hands it to the sink, becomes exactly the row (key and every cell, byte for byte) that
 * the core's RowCodec writes for the golden values, which is what Hive, MapReduce and the command
 * line decode; and that row reads back through the source's codec as the record the pipeline gave.
 */
class SchemaRecordCodecTest {
  private static final io.snapds.dataset.schema.Schema GOLDEN =
      io.snapds.dataset.schema.Schema.parse(GoldenRecords.schemaText());

  @Test
  void theInputSchemaIsTheGoldenDatasetSchema() {
    SchemaRecordCodec codec = SchemaRecordCodec.forInput(CdapValuesTest.GOLDEN, List.of("id"), "d");
    assertEquals(GOLDEN, codec.datasetSchema());
    assertEquals(CdapValuesTest.GOLDEN, SchemaRecordCodec.forDataset(GOLDEN, "golden", "d").cdapSchema());
  }

  @Test
  void goldenRecordsAreTheCoresBytesAndReadBackEqual() {
    SchemaRecordCodec sink = SchemaRecordCodec.forInput(CdapValuesTest.GOLDEN, List.of("id"), "d");
    SchemaRecordCodec source = SchemaRecordCodec.forDataset(GOLDEN, "golden", "d");
    RowCodec core = new RowCodec(GOLDEN, "d");
    for (Map<String, Object> golden : GoldenRecords.records()) {
      StructuredRecord input = CdapValuesTest.withCdapSetters(golden);
      SnapshotRow row = sink.toRow(input);
      assertEquals(core.encode(golden), row, "row of record " + golden.get("id"));
      StructuredRecord back = source.fromRow(row);
      for (Schema.Field f : CdapValuesTest.GOLDEN.getFields()) {
        assertEquals(normalized(input.get(f.getName())), normalized(back.get(f.getName())),
            f.getName() + " of record " + golden.get("id"));
      }
    }
  }

  @Test
  void aNullKeyIsRefusedNamingTheField() {
    // CDAP lets a nullable field be a key field; the dataset refuses a null key when it is written
    Schema nullableKey = Schema.recordOf("k", Schema.Field.of("id", Schema.nullableOf(Schema.of(Schema.Type.LONG))),
        Schema.Field.of("s", Schema.nullableOf(Schema.of(Schema.Type.STRING))));
    SchemaRecordCodec sink = SchemaRecordCodec.forInput(nullableKey, List.of("id"), "d");
    StructuredRecord noKey = StructuredRecord.builder(nullableKey).set("s", "x").build();
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> sink.toRow(noKey));
    assertEquals("id", e.field());
    assertTrue(e.getMessage().contains("id"), e.getMessage());
  }

  private static Object normalized(Object v) {
    return v instanceof byte[] b ? ByteBuffer.wrap(b) : v instanceof ByteBuffer b ? b.duplicate() : v;
  }
}
