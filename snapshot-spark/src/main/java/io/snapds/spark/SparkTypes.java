package io.snapds.spark;

import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaException;
import io.snapds.dataset.schema.Type;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The dataset's typed schema as a Spark schema, and its values as Spark's internal values, both
 * ways. The same types and values every adapter reads (docs/spark.md has the table):
 * timestamp (no zone) is {@code TIMESTAMP_NTZ}, timestamptz is {@code TIMESTAMP}; dates are days
 * and timestamps microseconds since the epoch in the proleptic Gregorian calendar on both sides,
 * so nothing is rebased. A key field is a non-nullable column whose metadata says
 * {@code snapds.key = true}.
 */
final class SparkTypes {
  /** Column metadata: the field is a key field (in key order). */
  static final String KEY = "snapds.key";
  /** Column metadata: the field's id in the dataset's schema. */
  static final String FIELD_ID = "snapds.field.id";

  private SparkTypes() {}

  static StructType toSpark(Schema schema) {
    List<StructField> fields = new ArrayList<>();
    for (Field f : schema.fields()) {
      Metadata meta = new MetadataBuilder().putBoolean(KEY, f.isKey()).putLong(FIELD_ID, f.id()).build();
      fields.add(new StructField(f.name(), toSpark(f.type()), f.isNullable(), meta));
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  static DataType toSpark(Type type) {
    switch (type.kind()) {
      case BOOLEAN: return DataTypes.BooleanType;
      case INT: return DataTypes.IntegerType;
      case LONG: return DataTypes.LongType;
      case FLOAT: return DataTypes.FloatType;
      case DOUBLE: return DataTypes.DoubleType;
      case STRING: return DataTypes.StringType;
      case BYTES: return DataTypes.BinaryType;
      case DECIMAL: return DataTypes.createDecimalType(type.precision(), type.scale());
      case DATE: return DataTypes.DateType;
      case TIMESTAMP: return DataTypes.TimestampNTZType;
      case TIMESTAMPTZ: return DataTypes.TimestampType;
      default: throw new IllegalArgumentException("no Spark type for " + type);
    }
  }

  /**
   * A dataset schema for a Spark schema (a table created through the catalog): fields numbered
   * 1, 2, ... in order; {@code keys} are the key fields, in key order.
   *
   * @throws SchemaException naming the column whose type a dataset cannot hold, or a key that is
   *     not a column
   */
  static Schema fromSpark(StructType struct, List<String> keys) {
    List<Field> fields = new ArrayList<>();
    Set<String> names = Set.of(struct.fieldNames());
    for (String k : keys) {
      if (!names.contains(k)) {
        throw new SchemaException(k, "key column '" + k + "' is not a column of " + struct.simpleString());
      }
    }
    // a schema's key is its key fields in the order they appear: the columns keep their order
    // when the key columns appear in it in key order, else the key columns come first
    List<String> order = new ArrayList<>(List.of(struct.fieldNames()));
    List<String> keyPositions = order.stream().filter(keys::contains).toList();
    if (!keyPositions.equals(keys)) {
      order.removeAll(keys);
      order.addAll(0, keys);
    }
    int id = 1;
    for (String name : order) {
      StructField f = struct.apply(name);
      Type t = fromSpark(f);
      fields.add(keys.contains(name) ? Field.key(id++, name, t)
          : f.nullable() ? Field.optional(id++, name, t) : Field.required(id++, name, t));
    }
    return Schema.of(fields);
  }

  private static Type fromSpark(StructField f) {
    DataType t = f.dataType();
    if (t.equals(DataTypes.BooleanType)) {
      return Type.BOOLEAN;
    } else if (t.equals(DataTypes.IntegerType) || t.equals(DataTypes.ShortType) || t.equals(DataTypes.ByteType)) {
      return Type.INT;
    } else if (t.equals(DataTypes.LongType)) {
      return Type.LONG;
    } else if (t.equals(DataTypes.FloatType)) {
      return Type.FLOAT;
    } else if (t.equals(DataTypes.DoubleType)) {
      return Type.DOUBLE;
    } else if (t.equals(DataTypes.StringType)) {
      return Type.STRING;
    } else if (t.equals(DataTypes.BinaryType)) {
      return Type.BYTES;
    } else if (t instanceof DecimalType d) {
      return Type.decimal(d.precision(), d.scale());
    } else if (t.equals(DataTypes.DateType)) {
      return Type.DATE;
    } else if (t.equals(DataTypes.TimestampNTZType)) {
      return Type.TIMESTAMP;
    } else if (t.equals(DataTypes.TimestampType)) {
      return Type.TIMESTAMPTZ;
    }
    throw new SchemaException(f.name(), "column '" + f.name() + "' has Spark type " + t.simpleString()
        + ", which a dataset schema cannot hold (boolean, int, long, float, double, string, binary, decimal,"
        + " date, timestamp_ntz, timestamp)");
  }

  /** A field's value (as the core decodes it) as Spark's internal value. */
  static Object toInternal(Field f, Object v) {
    if (v == null) {
      return null;
    }
    switch (f.type().kind()) {
      case STRING: return UTF8String.fromString((String) v);
      case DECIMAL: return Decimal.apply((BigDecimal) v, f.type().precision(), f.type().scale());
      case DATE: return (int) ((LocalDate) v).toEpochDay();
      case TIMESTAMP: return micros(((LocalDateTime) v).toInstant(ZoneOffset.UTC));
      case TIMESTAMPTZ: return micros((Instant) v);
      default: return v; // boolean, int, long, float, double, byte[]: the same Java values
    }
  }

  static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
  }
}
