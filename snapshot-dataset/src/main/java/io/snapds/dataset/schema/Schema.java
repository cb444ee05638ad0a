package io.snapds.dataset.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The ordered fields of a dataset's rows. The key fields, in the order they appear, form the row
 * key ({@link KeyCodec}); every other field is one cell ({@link RowCodec}). Field names are case
 * sensitive and unique; field ids are unique. A schema has at least one key field. Immutable.
 *
 * <p>Text form (what {@link #parse} reads and {@link #toString} writes): fields separated by
 * commas, each {@code name type [key | not null]}, for example
 * {@code id long key, name string, price decimal(10,2), at timestamp}. A field without
 * {@code key} or {@code not null} is nullable. {@link #parse} numbers the fields 1, 2, ... in
 * order, unless every field starts with its id and a colon, as {@link #toStringWithIds} writes
 * ({@code 1:id long key, 4:name string}).
 */
public final class Schema {
  private final List<Field> fields;
  private final List<Field> keyFields;
  private final Map<String, Integer> byName;

  private Schema(List<Field> fields) {
    if (fields.isEmpty()) {
      throw new SchemaException(null, "a schema needs at least one field");
    }
    Map<String, Integer> names = new HashMap<>();
    Set<Integer> ids = new HashSet<>();
    List<Field> keys = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      if (names.put(f.name(), i) != null) {
        throw new SchemaException(f.name(), "duplicate field name '" + f.name() + "'");
      }
      if (!ids.add(f.id())) {
        throw new SchemaException(f.name(), "duplicate field id " + f.id() + " (field '" + f.name() + "')");
      }
      if (f.isKey()) {
        keys.add(f);
      }
    }
    if (keys.isEmpty()) {
      throw new SchemaException(null, "a schema needs at least one key field, got: " + format(fields));
    }
    this.fields = List.copyOf(fields);
    this.keyFields = List.copyOf(keys);
    this.byName = Map.copyOf(names);
  }

  /**
   * A schema of these fields, in this order.
   *
   * @throws SchemaException for no fields, no key field, duplicate names or ids
   */
  public static Schema of(List<Field> fields) {
    return new Schema(List.copyOf(fields));
  }

  /** A schema of these fields, in this order. */
  public static Schema of(Field... fields) {
    return of(List.of(fields));
  }

  /**
   * Parses the text form (see the class comment), numbering the fields from 1.
   *
   * @throws SchemaException naming the part that does not parse
   */
  public static Schema parse(String text) {
    List<Field> out = new ArrayList<>();
    List<String> parts = splitFields(text);
    boolean withIds = parts.get(0).trim().matches("\\d+:.*");
    for (int i = 0; i < parts.size(); i++) {
      String part = parts.get(i).trim();
      int id = i + 1;
      if (withIds) {
        int colon = part.indexOf(':');
        if (colon < 0 || !part.substring(0, colon).matches("\\d{1,9}")) {
          throw new SchemaException(null, "field '" + part + "' has no id; give every field one ('3:name string') "
              + "or none");
        }
        id = Integer.parseInt(part.substring(0, colon));
        part = part.substring(colon + 1).trim();
      }
      out.add(parseField(id, part));
    }
    return of(out);
  }

  private static List<String> splitFields(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }

  private static Field parseField(int id, String part) {
    int space = part.indexOf(' ');
    if (part.isEmpty() || space < 0) {
      throw new SchemaException(null, "field '" + part + "' must be 'name type [key | not null]'");
    }
    String name = part.substring(0, space);
    String rest = part.substring(space + 1).trim();
    String lower = rest.toLowerCase(Locale.ROOT);
    try {
      if (lower.endsWith(" key")) {
        return Field.key(id, name, Type.parse(rest.substring(0, rest.length() - 4)));
      }
      if (lower.matches(".*\\snot\\s+null")) {
        return Field.required(id, name, Type.parse(rest.substring(0, lower.lastIndexOf("not")).trim()));
      }
      return Field.optional(id, name, Type.parse(rest));
    } catch (SchemaException e) {
      throw new SchemaException(name, "field '" + part + "': " + e.getMessage());
    }
  }

  /** All fields, in order. */
  public List<Field> fields() {
    return fields;
  }

  /** The key fields, in key order. */
  public List<Field> keyFields() {
    return keyFields;
  }

  /**
   * The field of that name.
   *
   * @throws UnknownFieldException if there is none
   */
  public Field field(String name) {
    return fields.get(indexOf(name));
  }

  /** The field of that name, if there is one. */
  public Optional<Field> findField(String name) {
    Integer i = byName.get(name);
    return i == null ? Optional.empty() : Optional.of(fields.get(i));
  }

  /** The field of that id, if there is one. */
  public Optional<Field> findField(int id) {
    return fields.stream().filter(f -> f.id() == id).findFirst();
  }

  /**
   * The position of the field of that name in {@link #fields()}.
   *
   * @throws UnknownFieldException if there is none
   */
  public int indexOf(String name) {
    Integer i = byName.get(name);
    if (i == null) {
      throw new UnknownFieldException(name, this);
    }
    return i;
  }

  /**
   * The key fields and the named ones, in this schema's order: what a reader that asks for some
   * fields gets ({@link SchemaRecord#project}).
   *
   * @throws UnknownFieldException for a name this schema does not have
   */
  public Schema select(List<String> names) {
    Set<String> wanted = new HashSet<>();
    for (String n : names) {
      indexOf(n);
      wanted.add(n);
    }
    List<Field> out = new ArrayList<>();
    for (Field f : fields) {
      if (f.isKey() || wanted.contains(f.name())) {
        out.add(f);
      }
    }
    return of(out);
  }

  /**
   * The text form with each field's id before it ({@code 1:id long key, 2:name string}), which
   * {@link #parse} reads back exactly: the form to store a schema in.
   */
  public String toStringWithIds() {
    StringBuilder b = new StringBuilder();
    for (Field f : fields) {
      b.append(b.length() > 0 ? ", " : "").append(f.id()).append(':').append(f);
    }
    return b.toString();
  }

  /** The largest field id, so that a new field can take the next one. */
  public int highestFieldId() {
    return fields.stream().mapToInt(Field::id).max().orElse(0);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Schema s && s.fields.equals(fields);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  /** The text form, which {@link #parse} reads back (with ids renumbered from 1). */
  @Override
  public String toString() {
    return format(fields);
  }

  private static String format(List<Field> fields) {
    StringBuilder b = new StringBuilder();
    for (Field f : fields) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(f);
    }
    return b.toString();
  }
}
