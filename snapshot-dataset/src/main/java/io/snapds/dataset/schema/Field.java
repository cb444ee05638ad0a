package io.snapds.dataset.schema;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One field of a {@link Schema}: a stable id (kept across renames, never reused), a name, a
 * {@link Type}, whether it may be null and whether it is part of the row key. Key fields are never
 * nullable. Immutable.
 */
public final class Field {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

  private final int id;
  private final String name;
  private final Type type;
  private final boolean nullable;
  private final boolean key;

  private Field(int id, String name, Type type, boolean nullable, boolean key) {
    if (id < 1) {
      throw new SchemaException(name, "field id must be >= 1, got " + id + " for field '" + name + "'");
    }
    if (name == null || !NAME.matcher(name).matches()) {
      throw new SchemaException(name, "invalid field name '" + name
          + "': use a letter or '_', then letters, digits or '_' (at most 128)");
    }
    Objects.requireNonNull(type, "type");
    if (key && nullable) {
      throw new SchemaException(name, "key field '" + name + "' cannot be nullable");
    }
    if (key && !type.isKeyable()) {
      throw new SchemaException(name, "key field '" + name + "' has type " + type
          + ", which keys do not support (decimals have no order-preserving encoding here)");
    }
    this.id = id;
    this.name = name;
    this.type = type;
    this.nullable = nullable;
    this.key = key;
  }

  /** A non-key field that may be null. */
  public static Field optional(int id, String name, Type type) {
    return new Field(id, name, type, true, false);
  }

  /** A non-key field that may not be null. */
  public static Field required(int id, String name, Type type) {
    return new Field(id, name, type, false, false);
  }

  /**
   * A key field (never null).
   *
   * @throws SchemaException if the type cannot be a key (decimal)
   */
  public static Field key(int id, String name, Type type) {
    return new Field(id, name, type, false, true);
  }

  public int id() {
    return id;
  }

  public String name() {
    return name;
  }

  public Type type() {
    return type;
  }

  public boolean isNullable() {
    return nullable;
  }

  public boolean isKey() {
    return key;
  }

  /** This field under another name, same id. */
  public Field withName(String newName) {
    return new Field(id, newName, type, nullable, key);
  }

  /** This field with another type, same id (whether the change is allowed is not checked here). */
  public Field withType(Type newType) {
    return new Field(id, name, newType, nullable, key);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Field f && f.id == id && f.name.equals(name) && f.type.equals(type)
        && f.nullable == nullable && f.key == key;
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, name, type, nullable, key);
  }

  /** The text form of {@link Schema#parse}: {@code id long key}, {@code name string not null}. */
  @Override
  public String toString() {
    return name + " " + type + (key ? " key" : nullable ? "" : " not null");
  }
}
