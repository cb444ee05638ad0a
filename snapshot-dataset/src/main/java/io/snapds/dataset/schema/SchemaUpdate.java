package io.snapds.dataset.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * Evolves a schema by Iceberg-like rules, so that every snapshot written with an older schema
 * stays readable with the new one ({@link SchemaRecord#project}): fields are matched by id,
 * never by name. Allowed:
 *
 * <ul>
 *   <li>{@link #addField}: a new nullable, non-key field, with a fresh id;
 *   <li>{@link #renameField}: any field, key fields too (the key encoding does not use names);
 *   <li>{@link #widenField}: a non-key field from int to long, float to double, or decimal(p,s)
 *       to decimal(p2,s) with p2 &gt; p;
 *   <li>{@link #makeNullable}: a non-key, non-null field becomes nullable;
 *   <li>{@link #dropField}: a non-key field (its id is never given again).
 * </ul>
 *
 * Anything else (a new key or non-null field, a narrowing or other type change, dropping or
 * changing the type of a key field, a name already taken) is refused with a
 * {@link SchemaException} naming the field. Not thread-safe; the changes apply in the order made.
 */
public final class SchemaUpdate {
  private final List<Field> fields;
  private int lastFieldId;

  /**
   * Changes to {@code base}, giving new fields ids above {@code lastFieldId}: the highest id the
   * dataset ever gave, so that a dropped field's id is not reused.
   */
  public SchemaUpdate(Schema base, int lastFieldId) {
    if (lastFieldId < base.highestFieldId()) {
      throw new IllegalArgumentException("lastFieldId " + lastFieldId + " is below the schema's highest field id "
          + base.highestFieldId());
    }
    this.fields = new ArrayList<>(base.fields());
    this.lastFieldId = lastFieldId;
  }

  /** Changes to {@code base}, new ids above its highest (only right if no field was ever dropped). */
  public SchemaUpdate(Schema base) {
    this(base, base.highestFieldId());
  }

  /** Adds a nullable, non-key field at the end. */
  public SchemaUpdate addField(String name, Type type) {
    if (indexOf(name) >= 0) {
      throw new SchemaException(name, "cannot add field '" + name + "': a field of that name exists");
    }
    fields.add(Field.optional(++lastFieldId, name, type));
    return this;
  }

  /** Renames a field; it keeps its id, type and place. */
  public SchemaUpdate renameField(String name, String newName) {
    int i = existing(name);
    if (indexOf(newName) >= 0) {
      throw new SchemaException(name, "cannot rename field '" + name + "' to '" + newName
          + "': a field of that name exists");
    }
    fields.set(i, fields.get(i).withName(newName));
    return this;
  }

  /** Widens a non-key field's type (int to long, float to double, a decimal's precision). */
  public SchemaUpdate widenField(String name, Type newType) {
    int i = existing(name);
    Field f = fields.get(i);
    if (f.type().equals(newType)) {
      return this;
    }
    if (f.isKey()) {
      throw new SchemaException(name, "cannot change the type of key field '" + name + "' from " + f.type()
          + " to " + newType + ": the key encoding would change");
    }
    if (!isWidening(f.type(), newType)) {
      throw new SchemaException(name, "cannot change field '" + name + "' from " + f.type() + " to " + newType
          + ": only int to long, float to double and decimal(p,s) to decimal(p2,s) with p2 > p are allowed");
    }
    fields.set(i, f.withType(newType));
    return this;
  }

  /** Makes a non-key field nullable. */
  public SchemaUpdate makeNullable(String name) {
    int i = existing(name);
    Field f = fields.get(i);
    if (f.isKey()) {
      throw new SchemaException(name, "cannot make key field '" + name + "' nullable");
    }
    fields.set(i, Field.optional(f.id(), f.name(), f.type()));
    return this;
  }

  /** Drops a non-key field. */
  public SchemaUpdate dropField(String name) {
    int i = existing(name);
    if (fields.get(i).isKey()) {
      throw new SchemaException(name, "cannot drop key field '" + name + "'");
    }
    fields.remove(i);
    return this;
  }

  /** The highest field id given so far (to record beside the new schema). */
  public int lastFieldId() {
    return lastFieldId;
  }

  /** The evolved schema. */
  public Schema apply() {
    return Schema.of(fields);
  }

  /** Whether a value of {@code from} always fits {@code to} unchanged. */
  static boolean isWidening(Type from, Type to) {
    if (from.kind() == Type.Kind.INT && to.kind() == Type.Kind.LONG) {
      return true;
    }
    if (from.kind() == Type.Kind.FLOAT && to.kind() == Type.Kind.DOUBLE) {
      return true;
    }
    return from.kind() == Type.Kind.DECIMAL && to.kind() == Type.Kind.DECIMAL && from.scale() == to.scale()
        && to.precision() > from.precision();
  }

  private int existing(String name) {
    int i = indexOf(name);
    if (i < 0) {
      throw new UnknownFieldException(name, Schema.of(fields));
    }
    return i;
  }

  private int indexOf(String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
