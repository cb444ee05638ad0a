package io.snapds.cdap.codec;

import io.cdap.cdap.api.data.schema.Schema;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** What the codecs accept: which schemas a row key field and a column may have. */
public final class SchemaTypes {
  private static final Set<Schema.Type> KEY_TYPES = EnumSet.of(Schema.Type.STRING, Schema.Type.BYTES,
      Schema.Type.BOOLEAN, Schema.Type.INT, Schema.Type.LONG, Schema.Type.FLOAT, Schema.Type.DOUBLE);

  private SchemaTypes() {
  }

  /** The schema without its nullable union: {@code [null, T]} gives {@code T}. */
  public static Schema nonNullable(Schema schema) {
    return schema.isNullable() ? schema.getNonNullable() : schema;
  }

  /**
   * Why a field of this schema cannot be a row key field, or empty when it can: string, bytes,
   * boolean, int, long, float, double and the logical types on them (date, time, timestamp,
   * datetime), nullable or not. Decimals cannot: equal values of other scales would differ.
   */
  public static Optional<String> keyProblem(Schema schema) {
    Schema s = nonNullable(schema);
    if (s.getLogicalType() == Schema.LogicalType.DECIMAL) {
      return Optional.of("decimal is not supported in a row key");
    }
    if (!KEY_TYPES.contains(s.getType())) {
      return Optional.of(describe(s) + " is not supported in a row key (use string, bytes, boolean, int, long, "
          + "float, double, date, time or timestamp)");
    }
    return Optional.empty();
  }

  /**
   * Why a field of this schema cannot be stored, or empty when it can. Every type can, except
   * unions other than {@code [null, T]} and a bare null.
   */
  public static Optional<String> columnProblem(Schema schema) {
    if (schema.getType() == Schema.Type.NULL) {
      return Optional.of("a field of type null holds nothing to store");
    }
    if (schema.getType() == Schema.Type.UNION && !schema.isNullable()) {
      return Optional.of("union " + schema + " is not supported (only unions of null and one type)");
    }
    Schema s = nonNullable(schema);
    switch (s.getType()) {
      case ARRAY:
        return columnProblem(s.getComponentSchema());
      case MAP:
        return columnProblem(s.getMapSchema().getKey()).or(() -> columnProblem(s.getMapSchema().getValue()));
      case RECORD:
        for (Schema.Field f : s.getFields()) {
          Optional<String> p = columnProblem(f.getSchema());
          if (p.isPresent()) {
            return Optional.of("nested field '" + f.getName() + "': " + p.get());
          }
        }
        return Optional.empty();
      default:
        return Optional.empty();
    }
  }

  /** A short name of a schema for messages: {@code int}, {@code date}, {@code array}. */
  public static String describe(Schema schema) {
    Schema s = nonNullable(schema);
    return s.getLogicalType() != null ? s.getLogicalType().getToken() : s.getType().name().toLowerCase();
  }
}
