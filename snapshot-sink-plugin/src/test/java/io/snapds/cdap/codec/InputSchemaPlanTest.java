package io.snapds.cdap.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.dataset.schema.SchemaUpdate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which input schemas fit a dataset schema as it is, after an evolution, or not at all. */
class InputSchemaPlanTest {
  private static final io.snapds.dataset.schema.Schema DATASET = io.snapds.dataset.schema.Schema.parse(
      "id long key, n int not null, price decimal(10,2), name string");

  private static Schema input(Schema.Field... fields) {
    return Schema.recordOf("in", fields);
  }

  private static Schema.Field field(String name, Schema.Type type) {
    return Schema.Field.of(name, Schema.of(type));
  }

  private static Schema.Field nullable(String name, Schema schema) {
    return Schema.Field.of(name, Schema.nullableOf(schema));
  }

  private static io.snapds.dataset.schema.Schema evolved(InputSchemaPlan plan) {
    return plan.applyTo(new SchemaUpdate(DATASET)).apply();
  }

  @Test
  void aDatasetWithoutSchemaGetsTheInputsWithTheNamedKey() {
    InputSchemaPlan plan = InputSchemaPlan.of(input(field("id", Schema.Type.LONG),
        nullable("name", Schema.of(Schema.Type.STRING))), List.of("id"), Optional.empty());
    assertEquals(List.of(), plan.problems());
    assertEquals(Optional.of(io.snapds.dataset.schema.Schema.parse("id long key, name string")), plan.schemaToCreate());
    assertEquals("the dataset has no schema yet: name its key fields in rowKeyFields", InputSchemaPlan.of(
        input(field("id", Schema.Type.LONG)), List.of(), Optional.empty()).problems().get(0).message());
  }

  @Test
  void narrowerOrEqualFieldsFitAsTheyAreAndWiderNullableOrNewOnesEvolveTheSchema() {
    InputSchemaPlan same = InputSchemaPlan.of(input(field("id", Schema.Type.LONG), field("n", Schema.Type.INT),
        Schema.Field.of("price", Schema.decimalOf(8, 2))), List.of(), Optional.of(DATASET));
    assertEquals(List.of(), same.problems());
    assertFalse(same.evolves(), "a decimal(8,2) fits decimal(10,2); a missing nullable field is null");

    InputSchemaPlan wider = InputSchemaPlan.of(input(field("id", Schema.Type.LONG),
        nullable("n", Schema.of(Schema.Type.LONG)), Schema.Field.of("price", Schema.decimalOf(12, 2)),
        nullable("note", Schema.of(Schema.Type.STRING))), List.of("id"), Optional.of(DATASET));
    assertEquals(List.of(), wider.problems());
    assertTrue(wider.evolves());
    assertEquals("1:id long key, 2:n long, 3:price decimal(12,2), 4:name string, 5:note string",
        evolved(wider).toStringWithIds());
  }

  @Test
  void misfitsAreRefusedNamingTheField() {
    InputSchemaPlan plan = InputSchemaPlan.of(input(field("id", Schema.Type.STRING),
        field("price", Schema.Type.STRING), field("day", Schema.Type.INT)), List.of(), Optional.of(DATASET));
    assertEquals(List.of(
        new InputSchemaPlan.Problem("id", "input field 'id' is string, but the dataset's field 'id' is long (a key field)"),
        new InputSchemaPlan.Problem("price", "input field 'price' is string, but the dataset's field 'price' is "
            + "decimal(10,2)"),
        new InputSchemaPlan.Problem("n", "the dataset's non-null field 'n' (int) is not in the input")),
        plan.problems());
    assertEquals(List.of(new InputSchemaPlan.Problem(null, "the key fields [n] differ from the dataset's [id] "
        + "(a key cannot change)")), InputSchemaPlan.of(input(field("id", Schema.Type.LONG),
            field("n", Schema.Type.INT)), List.of("n"), Optional.of(DATASET)).problems());
    assertEquals("t", InputSchemaPlan.of(input(field("id", Schema.Type.LONG), Schema.Field.of("t",
        Schema.of(Schema.LogicalType.TIME_MILLIS))), List.of("id"), Optional.empty()).problems().get(0).field());
  }
}
