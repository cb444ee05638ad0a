package io.snapds.dataset.schema;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One row as typed values of a {@link Schema}, looked up by field name. Every value has been
 * checked against its field ({@link ValueCodec#check}), so a record always encodes. Immutable
 * (byte arrays are copied in and out).
 */
public final class SchemaRecord {
  private final Schema schema;
  private final Object[] values;

  private SchemaRecord(Schema schema, Object[] values) {
    this.schema = schema;
    this.values = values;
  }

  /**
   * A record of these values by field name; a field not in the map is null.
   *
   * @throws UnknownFieldException for a name the schema does not have
   * @throws InvalidValueException for a value that does not fit its field, or a missing or null
   *     key or non-null field
   */
  public static SchemaRecord of(Schema schema, Map<String, ?> values) {
    Builder b = builder(schema);
    values.forEach(b::set);
    return b.build();
  }

  /** A builder of a record of this schema. */
  public static Builder builder(Schema schema) {
    return new Builder(schema);
  }

  /** Builds a {@link SchemaRecord}; not thread-safe. */
  public static final class Builder {
    private final Schema schema;
    private final Object[] values;

    private Builder(Schema schema) {
      this.schema = schema;
      this.values = new Object[schema.fields().size()];
    }

    /**
     * Sets a field's value (null for none).
     *
     * @throws UnknownFieldException for a name the schema does not have
     * @throws InvalidValueException for a value that does not fit the field
     */
    public Builder set(String name, Object value) {
      int i = schema.indexOf(name);
      values[i] = ValueCodec.check(schema.fields().get(i), value);
      return this;
    }

    /**
     * The record.
     *
     * @throws InvalidValueException naming the first key or non-null field without a value
     */
    public SchemaRecord build() {
      for (int i = 0; i < values.length; i++) {
        if (values[i] == null) {
          ValueCodec.check(schema.fields().get(i), null);
        }
      }
      return new SchemaRecord(schema, values.clone());
    }
  }

  public Schema schema() {
    return schema;
  }

  /**
   * The value of a field in its canonical Java class ({@link Type}), or null.
   *
   * @throws UnknownFieldException for a name the schema does not have
   */
  public Object get(String name) {
    Object v = values[schema.indexOf(name)];
    return v instanceof byte[] b ? b.clone() : v;
  }

  /** Whether the field is null. */
  public boolean isNull(String name) {
    return values[schema.indexOf(name)] == null;
  }

  public Boolean getBoolean(String name) {
    return typed(name, Boolean.class);
  }

  public Integer getInt(String name) {
    return typed(name, Integer.class);
  }

  public Long getLong(String name) {
    return typed(name, Long.class);
  }

  public Float getFloat(String name) {
    return typed(name, Float.class);
  }

  public Double getDouble(String name) {
    return typed(name, Double.class);
  }

  public String getString(String name) {
    return typed(name, String.class);
  }

  public byte[] getBytes(String name) {
    return typed(name, byte[].class);
  }

  public BigDecimal getDecimal(String name) {
    return typed(name, BigDecimal.class);
  }

  public LocalDate getDate(String name) {
    return typed(name, LocalDate.class);
  }

  /** A {@code timestamp} (no zone) field. */
  public LocalDateTime getTimestamp(String name) {
    return typed(name, LocalDateTime.class);
  }

  /** A {@code timestamptz} field. */
  public Instant getInstant(String name) {
    return typed(name, Instant.class);
  }

  /**
   * This record read with another schema of the same dataset (an evolved one, or a
   * {@link Schema#select selection}): fields are matched by id, so a renamed field keeps its
   * value, a widened one is widened, and a field this record's schema lacks (added later, or not
   * selected) is null.
   *
   * @throws InvalidValueException if a field of {@code target} that this record has no value for
   *     is not nullable, or a value does not fit its field's new type
   */
  public SchemaRecord project(Schema target) {
    if (target.equals(schema)) {
      return this;
    }
    Object[] out = new Object[target.fields().size()];
    for (int i = 0; i < out.length; i++) {
      Field f = target.fields().get(i);
      int source = -1;
      for (int j = 0; j < values.length && source < 0; j++) {
        if (schema.fields().get(j).id() == f.id()) {
          source = j;
        }
      }
      out[i] = ValueCodec.check(f, source < 0 ? null : values[source]);
    }
    return new SchemaRecord(target, out);
  }

  /** The key fields' values, in key order. */
  public List<Object> keyValues() {
    List<Object> out = new ArrayList<>();
    for (Field f : schema.keyFields()) {
      out.add(get(f.name()));
    }
    return Collections.unmodifiableList(out);
  }

  /** Field name to value, in field order, nulls included. */
  public Map<String, Object> toMap() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Field f : schema.fields()) {
      out.put(f.name(), get(f.name()));
    }
    return Collections.unmodifiableMap(out);
  }

  private <T> T typed(String name, Class<T> type) {
    Object v = get(name);
    if (v != null && !type.isInstance(v)) {
      Field f = schema.field(name);
      throw new InvalidValueException(name, v, "field '" + name + "' is " + f.type() + ", not "
          + type.getSimpleName());
    }
    return type.cast(v);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SchemaRecord r && r.schema.equals(schema) && Arrays.deepEquals(r.values, values);
  }

  @Override
  public int hashCode() {
    return 31 * schema.hashCode() + Arrays.deepHashCode(values);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      b.append(i == 0 ? "" : ", ").append(schema.fields().get(i).name()).append('=')
          .append(v instanceof byte[] bytes ? org.apache.hadoop.hbase.util.Bytes.toStringBinary(bytes) : v);
    }
    return b.append('}').toString();
  }
}
