package io.snapds.cdap.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.dataset.testing.GoldenRecords;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CdapSchemasTest {
  @Test
  void theGoldenCdapSchemaIsTheGoldenDatasetSchema() {
    assertEquals(GoldenRecords.schemaText(), CdapSchemas.schemaText(CdapValuesTest.GOLDEN, List.of("id")));
  }

  @Test
  void everyDatasetTypeNameMapsBackToItsCdapSchema() {
    for (Schema.Field f : CdapValuesTest.GOLDEN.getFields()) {
      assertEquals(f.getSchema(), CdapSchemas.schemaOf(CdapSchemas.typeName(f.getSchema()), f.getSchema().isNullable()),
          f.getName());
    }
  }

  @Test
  void timestampMillisIsStoredAsATimestampWithZone() {
    assertEquals("timestamptz", CdapSchemas.typeName(Schema.of(Schema.LogicalType.TIMESTAMP_MILLIS)));
  }

  @Test
  void typesWithoutADatasetTypeAreNamed() {
    assertEquals(Optional.of("CDAP type time-micros has no dataset type"),
        CdapSchemas.problem(Schema.of(Schema.LogicalType.TIME_MICROS)));
    Schema withArray = Schema.recordOf("r", Schema.Field.of("id", Schema.of(Schema.Type.LONG)),
        Schema.Field.of("tags", Schema.arrayOf(Schema.of(Schema.Type.STRING))));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CdapSchemas.schemaText(withArray, List.of("id")));
    assertEquals("field 'tags': CDAP type array has no dataset type (use boolean, int, long, float, double, string, "
        + "bytes, decimal, date, timestamp or datetime)", e.getMessage());
    assertEquals("dataset type 'uuid' has no CDAP schema",
        assertThrows(IllegalArgumentException.class, () -> CdapSchemas.schemaOf("uuid", true)).getMessage());
  }
}
