package io.snapds.cdap.codec;

import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaException;
import io.snapds.dataset.schema.SchemaUpdate;
import io.snapds.dataset.schema.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What writing records of a CDAP input schema into a dataset takes: the dataset schema to create
 * when the dataset has none, or the evolution of its current schema (by the rules of
 * {@link SchemaUpdate}) that makes every input field fit; or the problems, each naming its field,
 * when the input cannot fit. Fields are matched by name. An input field fits a dataset field of
 * the same type or of a wider one (int into long, float into double, a decimal into one with as
 * many integer and fraction digits); a wider input field widens the dataset field; a nullable
 * input field makes a non-null dataset field nullable; an input field the dataset lacks is added
 * (nullable). Refused: another type, a key that differs from the dataset's, a dataset key or
 * non-null field the input lacks, and any CDAP type without a dataset type. Immutable.
 */
public final class InputSchemaPlan {
  /** One reason the input cannot be written: the field (null when about the key as a whole) and why. */
  public record Problem(String field, String message) {}

  private final List<Problem> problems;
  private final Schema created;
  private final List<UnaryOperator<SchemaUpdate>> changes;
  private final List<String> changeText;

  private InputSchemaPlan(List<Problem> problems, Schema created, List<UnaryOperator<SchemaUpdate>> changes,
      List<String> changeText) {
    this.problems = List.copyOf(problems);
    this.created = created;
    this.changes = List.copyOf(changes);
    this.changeText = List.copyOf(changeText);
  }

  /**
   * @param input the CDAP record schema of the records
   * @param keyFields the configured key fields in order; empty: the dataset's (required when it has no schema)
   * @param current the dataset's current schema; empty when it has none
   */
  public static InputSchemaPlan of(io.cdap.cdap.api.data.schema.Schema input, List<String> keyFields,
      Optional<Schema> current) {
    List<Problem> problems = new ArrayList<>();
    for (io.cdap.cdap.api.data.schema.Schema.Field f : input.getFields()) {
      CdapSchemas.problem(f.getSchema()).ifPresent(p -> problems.add(new Problem(f.getName(),
          "input field '" + f.getName() + "' has no dataset type: " + p)));
    }
    if (!problems.isEmpty()) {
      return new InputSchemaPlan(problems, null, List.of(), List.of());
    }
    if (current.isEmpty()) {
      return create(input, keyFields);
    }
    return evolve(input, keyFields, current.get());
  }

  private static InputSchemaPlan create(io.cdap.cdap.api.data.schema.Schema input, List<String> keyFields) {
    if (keyFields.isEmpty()) {
      return new InputSchemaPlan(List.of(new Problem(null, "the dataset has no schema yet: name its key fields "
          + "in rowKeyFields")), null, List.of(), List.of());
    }
    for (String k : keyFields) {
      if (input.getField(k) == null) {
        return new InputSchemaPlan(List.of(new Problem(k, "key field '" + k + "' is not in the input")), null,
            List.of(), List.of());
      }
    }
    try {
      return new InputSchemaPlan(List.of(), Schema.parse(CdapSchemas.schemaText(input, keyFields)), List.of(),
          List.of());
    } catch (SchemaException e) {
      return new InputSchemaPlan(List.of(new Problem(e.field(), e.getMessage())), null, List.of(), List.of());
    }
  }

  private static InputSchemaPlan evolve(io.cdap.cdap.api.data.schema.Schema input, List<String> keyFields,
      Schema current) {
    List<Problem> problems = new ArrayList<>();
    List<UnaryOperator<SchemaUpdate>> changes = new ArrayList<>();
    List<String> text = new ArrayList<>();
    List<String> datasetKeys = current.keyFields().stream().map(Field::name).toList();
    if (!keyFields.isEmpty() && !keyFields.equals(datasetKeys)) {
      problems.add(new Problem(null, "the key fields " + keyFields + " differ from the dataset's " + datasetKeys
          + " (a key cannot change)"));
    }
    for (io.cdap.cdap.api.data.schema.Schema.Field in : input.getFields()) {
      String name = in.getName();
      Type type = Type.parse(CdapSchemas.typeName(in.getSchema()));
      Optional<Field> existing = current.findField(name);
      if (existing.isEmpty()) {
        if (keyFields.contains(name)) {
          continue; // reported above: the key differs
        }
        changes.add(u -> u.addField(name, type));
        text.add("add " + name + " " + type);
        continue;
      }
      Field f = existing.get();
      if (fits(type, f.type())) {
        // written as it is
      } else if (!f.isKey() && fits(f.type(), type)) {
        changes.add(u -> u.widenField(name, type));
        text.add("widen " + name + " to " + type);
      } else {
        problems.add(new Problem(name, "input field '" + name + "' is " + type + ", but the dataset's field '"
            + name + "' is " + f.type() + (f.isKey() ? " (a key field)" : "")));
        continue;
      }
      if (in.getSchema().isNullable() && !f.isNullable() && !f.isKey()) {
        changes.add(u -> u.makeNullable(name));
        text.add("make " + name + " nullable");
      }
    }
    for (Field f : current.fields()) {
      if (input.getField(f.name()) == null && !f.isNullable()) {
        problems.add(new Problem(f.name(), "the dataset's " + (f.isKey() ? "key" : "non-null") + " field '"
            + f.name() + "' (" + f.type() + ") is not in the input"));
      }
    }
    return problems.isEmpty() ? new InputSchemaPlan(List.of(), null, changes, text)
        : new InputSchemaPlan(problems, null, List.of(), List.of());
  }

  /** Whether every value of {@code from} is written unchanged into a field of {@code to}. */
  static boolean fits(Type from, Type to) {
    if (from.equals(to)) {
      return true;
    }
    if (from.kind() == Type.Kind.INT && to.kind() == Type.Kind.LONG
        || from.kind() == Type.Kind.FLOAT && to.kind() == Type.Kind.DOUBLE) {
      return true;
    }
    return from.kind() == Type.Kind.DECIMAL && to.kind() == Type.Kind.DECIMAL && to.scale() >= from.scale()
        && to.precision() - to.scale() >= from.precision() - from.scale();
  }

  /** Why the input cannot be written, one problem per field; empty when it can. */
  public List<Problem> problems() {
    return problems;
  }

  /** The schema to give a dataset that has none. */
  public Optional<Schema> schemaToCreate() {
    return Optional.ofNullable(created);
  }

  /** Whether the dataset's current schema must evolve. */
  public boolean evolves() {
    return !changes.isEmpty();
  }

  /** Applies the evolution to {@code update} (for {@code SnapshotDataset.updateSchema}). */
  public SchemaUpdate applyTo(SchemaUpdate update) {
    SchemaUpdate u = update;
    for (UnaryOperator<SchemaUpdate> c : changes) {
      u = c.apply(u);
    }
    return u;
  }

  @Override
  public String toString() {
    if (!problems.isEmpty()) {
      return "refused: " + problems;
    }
    return created != null ? "create [" + created + "]" : changes.isEmpty() ? "as it is" : "evolve: " + changeText;
  }
}
