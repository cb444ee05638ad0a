package io.snapds.dataset.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class SchemaUpdateTest {
  private static final Schema V1 = Schema.parse("id int key, n int, score float, name string not null");

  @Test
  void oldRecordsReadWithEachLaterSchema() {
    Schema v2 = new SchemaUpdate(V1).addField("day", Type.DATE).apply();
    Schema v3 = new SchemaUpdate(v2).renameField("name", "label").widenField("n", Type.LONG)
        .widenField("score", Type.DOUBLE).apply();
    assertEquals("1:id int key, 2:n long, 3:score double, 4:label string not null, 5:day date",
        v3.toStringWithIds());

    SchemaRecord written1 = SchemaRecord.of(V1, Map.of("id", 1, "n", Integer.MIN_VALUE, "score", 0.5f, "name", "a"));
    SchemaRecord as3 = written1.project(v3);
    assertEquals(Long.valueOf(Integer.MIN_VALUE), as3.getLong("n"));
    assertEquals(0.5d, as3.getDouble("score"));
    assertEquals("a", as3.getString("label"));
    assertNull(as3.getDate("day"));

    SchemaRecord written2 = SchemaRecord.of(v2, Map.of("id", 2, "name", "b", "day", LocalDate.of(1950, 1, 1)));
    assertEquals(LocalDate.of(1950, 1, 1), written2.project(v3).getDate("day"));
    // and a record read through a codec of its own schema, then projected, is the same
    RowCodec old = new RowCodec(V1, "d");
    assertEquals(as3, old.decode(old.encode(written1)).project(v3));
  }

  @Test
  void droppedIdsAreNotReusedAndSelectionsKeepTheKey() {
    SchemaUpdate u = new SchemaUpdate(V1).dropField("name");
    Schema dropped = u.apply();
    Schema readded = new SchemaUpdate(dropped, u.lastFieldId()).addField("name", Type.STRING).apply();
    assertEquals(5, readded.field("name").id());
    SchemaRecord old = SchemaRecord.of(V1, Map.of("id", 1, "name", "gone"));
    assertNull(old.project(readded).getString("name"), "a new field of an old name is not the old field");

    Schema sel = V1.select(List.of("score"));
    assertEquals("id int key, score float", sel.toString());
    assertEquals(Map.of("id", 1, "score", 2f), SchemaRecord.of(V1, Map.of("id", 1, "score", 2f, "name", "x"))
        .project(sel).toMap());
    assertThrows(UnknownFieldException.class, () -> V1.select(List.of("nope")));
  }

  @Test
  void incompatibleChangesAreRefusedNamingTheField() {
    refused("n", "cannot change field 'n' from int to string", () -> new SchemaUpdate(V1).widenField("n", Type.STRING));
    refused("score", "cannot change field 'score' from float to int",
        () -> new SchemaUpdate(V1).widenField("score", Type.INT));
    refused("id", "cannot change the type of key field 'id'", () -> new SchemaUpdate(V1).widenField("id", Type.LONG));
    refused("id", "cannot drop key field 'id'", () -> new SchemaUpdate(V1).dropField("id"));
    refused("n", "cannot add field 'n'", () -> new SchemaUpdate(V1).addField("n", Type.LONG));
    refused("n", "cannot rename field 'n' to 'name'", () -> new SchemaUpdate(V1).renameField("n", "name"));
    refused("nope", "unknown field 'nope'", () -> new SchemaUpdate(V1).dropField("nope"));
    SchemaException dec = assertThrows(SchemaException.class, () -> new SchemaUpdate(
        Schema.parse("id int key, p decimal(10,2)")).widenField("p", Type.decimal(12, 3)));
    assertEquals("p", dec.field());
    assertEquals(Type.decimal(12, 2), new SchemaUpdate(Schema.parse("id int key, p decimal(10,2)"))
        .widenField("p", Type.decimal(12, 2)).apply().field("p").type());
    // a field that becomes non-null in the target cannot take an old record without it
    Schema v2 = new SchemaUpdate(V1).addField("x", Type.INT).apply();
    Schema strict = Schema.of(List.of(v2.fields().get(0), Field.required(5, "x", Type.INT)));
    InvalidValueException e = assertThrows(InvalidValueException.class,
        () -> SchemaRecord.of(V1, Map.of("id", 1, "name", "a")).project(strict));
    assertEquals("x", e.field());
  }

  @Test
  void storedFormRoundTripsIds() {
    Schema s = new SchemaUpdate(V1).dropField("n").addField("z", Type.TIMESTAMPTZ).apply();
    assertEquals(s, Schema.parse(s.toStringWithIds()));
    SchemaException mixed = assertThrows(SchemaException.class, () -> Schema.parse("1:id int key, n int"));
    assertTrue(mixed.getMessage().contains("field 'n int' has no id"), mixed.getMessage());
  }

  private static void refused(String field, String message, Executable change) {
    SchemaException e = assertThrows(SchemaException.class, change);
    assertEquals(field, e.field());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }
}
