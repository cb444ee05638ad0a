package io.snapds.dataset.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaTest {
  @Test
  void parsesTheTextFormAndWritesItBack() {
    Schema s = Schema.parse("id long key, name string, price decimal(10, 2), at timestamp, "
        + "seen timestamptz not null, day date");
    assertEquals(List.of(Field.key(1, "id", Type.LONG), Field.optional(2, "name", Type.STRING),
        Field.optional(3, "price", Type.decimal(10, 2)), Field.optional(4, "at", Type.TIMESTAMP),
        Field.required(5, "seen", Type.TIMESTAMPTZ), Field.optional(6, "day", Type.DATE)), s.fields());
    assertEquals(List.of(s.field("id")), s.keyFields());
    assertEquals("id long key, name string, price decimal(10,2), at timestamp, seen timestamptz not null, "
        + "day date", s.toString());
    assertEquals(s, Schema.parse(s.toString()));
    assertEquals(6, s.highestFieldId());
    assertEquals("price", s.findField(3).orElseThrow().name());
    assertFalse(s.findField("nope").isPresent());
  }

  @Test
  void compositeKeysKeepFieldOrder() {
    Schema s = Schema.parse("region string key, amount double, day date key");
    assertEquals(List.of("region", "day"), s.keyFields().stream().map(Field::name).toList());
  }

  @Test
  void refusesBadSchemasNamingTheField() {
    SchemaException dec = assertThrows(SchemaException.class, () -> Schema.parse("id decimal(10,2) key"));
    assertEquals("id", dec.field());
    assertTrue(dec.getMessage().contains("key field 'id' has type decimal(10,2)"), dec.getMessage());

    SchemaException type = assertThrows(SchemaException.class, () -> Schema.parse("id long key, x varchar"));
    assertEquals("x", type.field());
    assertTrue(type.getMessage().contains("unknown type 'varchar'"), type.getMessage());

    SchemaException dup = assertThrows(SchemaException.class, () -> Schema.parse("id long key, id int"));
    assertTrue(dup.getMessage().contains("duplicate field name 'id'"), dup.getMessage());

    SchemaException noKey = assertThrows(SchemaException.class, () -> Schema.parse("id long"));
    assertTrue(noKey.getMessage().contains("at least one key field"), noKey.getMessage());

    SchemaException prec = assertThrows(SchemaException.class, () -> Schema.parse("id long key, p decimal(39,2)"));
    assertTrue(prec.getMessage().contains("decimal(39,2)"), prec.getMessage());

    SchemaException name = assertThrows(SchemaException.class, () -> Schema.parse("id long key, 9x int"));
    assertTrue(name.getMessage().contains("invalid field name '9x'"), name.getMessage());

    SchemaException dupId = assertThrows(SchemaException.class,
        () -> Schema.of(Field.key(1, "a", Type.INT), Field.optional(1, "b", Type.INT)));
    assertTrue(dupId.getMessage().contains("duplicate field id 1"), dupId.getMessage());

    UnknownFieldException unknown = assertThrows(UnknownFieldException.class,
        () -> Schema.parse("id long key").field("nope"));
    assertEquals("nope", unknown.field());
  }
}
