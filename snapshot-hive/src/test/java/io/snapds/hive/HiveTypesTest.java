package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.testing.GoldenRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every golden value (#15) as the Hive object a schema table hands Hive: the Hive object's text
 * is the text computed from the Java value with java.time alone, and the object converts back to
 * the same value (as key-condition constants do).
 */
class HiveTypesTest {
  private static final Schema GOLDEN = Schema.parse(GoldenRecords.schemaText());

  @Test
  void hiveTypesOfTheGoldenSchema() {
    List<String> types = new ArrayList<>();
    GOLDEN.fields().forEach(f -> types.add(f.name() + " " + HiveTypes.typeInfo(f.type()).getTypeName()));
    assertEquals(List.of("id bigint", "flag boolean", "i int", "l bigint", "f float", "d double", "s string",
        "b binary", "amount decimal(18,4)", "day date", "at timestamp", "at_tz timestamp"), types);
  }

  @Test
  void everyGoldenValueIsTheSameValueInHive() {
    for (Map<String, Object> record : GoldenRecords.records()) {
      for (Field f : GOLDEN.fields()) {
        Object value = record.get(f.name());
        Object hive = HiveTypes.toHive(f, value);
        String where = f.name() + " of record " + record.get("id");
        if (value instanceof byte[] b) {
          assertArrayEquals(b, (byte[]) hive, where);
          continue;
        }
        String hiveText = hive == null ? "NULL" : hive.toString();
        if (f.type().kind() == io.snapds.dataset.schema.Type.Kind.DECIMAL && hive != null) {
          hiveText = ((org.apache.hadoop.hive.common.type.HiveDecimal) hive).bigDecimalValue().setScale(f.type().scale())
              .toPlainString(); // Hive prints a decimal column at its scale
        }
        assertEquals(GoldenHiveFormat.format(value), hiveText, where);
        assertEquals(value, HiveTypes.fromHive(f, hive), where);
      }
    }
  }
}
