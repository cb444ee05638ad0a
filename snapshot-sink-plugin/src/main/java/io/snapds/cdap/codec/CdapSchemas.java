package io.snapds.cdap.codec;

import static com.google.common.base.Preconditions.checkArgument;

import io.cdap.cdap.api.data.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CDAP record schemas and dataset schema fields, as the dataset's type names
 * ({@code 'id long key, amount decimal(18,4), at timestamptz'}):
 * <table>
 *   <tr><th>CDAP</th><th>dataset</th></tr>
 *   <tr><td>boolean, int, long, float, double, string, bytes</td><td>the same name</td></tr>
 *   <tr><td>decimal(p,s)</td><td>decimal(p,s)</td></tr>
 *   <tr><td>date</td><td>date</td></tr>
 *   <tr><td>timestamp-micros, timestamp-millis</td><td>timestamptz (reads back as timestamp-micros)</td></tr>
 *   <tr><td>datetime</td><td>timestamp (no zone)</td></tr>
 * </table>
 * A {@code [null, T]} union is a nullable field. Other CDAP types (time, enum, array, map,
 * record, other unions) have no dataset type: {@link #problem} names them.
 */
public final class CdapSchemas {
  private static final Pattern DECIMAL = Pattern.compile("decimal\\((\\d+),\\s*(\\d+)\\)");

  private CdapSchemas() {}

  /** Why a field of this CDAP schema has no dataset type, or empty when it has one. */
  public static Optional<String> problem(Schema schema) {
    try {
      typeName(schema);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * The dataset type name of a CDAP field schema (nullable or not).
   *
   * @throws IllegalArgumentException naming the CDAP type when it has no dataset type
   */
  public static String typeName(Schema schema) {
    checkArgument(schema.getType() != Schema.Type.UNION || schema.isNullable(),
        "union %s has no dataset type (only unions of null and one type)", schema);
    Schema s = SchemaTypes.nonNullable(schema);
    Schema.LogicalType logical = s.getLogicalType();
    if (logical != null) {
      switch (logical) {
        case DECIMAL:
          return "decimal(" + s.getPrecision() + "," + s.getScale() + ")";
        case DATE:
          return "date";
        case TIMESTAMP_MICROS:
        case TIMESTAMP_MILLIS:
          return "timestamptz";
        case DATETIME:
          return "timestamp";
        default:
          throw new IllegalArgumentException("CDAP type " + logical.getToken() + " has no dataset type");
      }
    }
    switch (s.getType()) {
      case BOOLEAN:
      case INT:
      case LONG:
      case FLOAT:
      case DOUBLE:
      case STRING:
      case BYTES:
        return s.getType().name().toLowerCase();
      default:
        throw new IllegalArgumentException("CDAP type " + s.getType().name().toLowerCase() + " has no dataset type "
            + "(use boolean, int, long, float, double, string, bytes, decimal, date, timestamp or datetime)");
    }
  }

  /**
   * The CDAP schema of a dataset type name: the inverse of {@link #typeName}, with timestamptz as
   * timestamp-micros.
   *
   * @throws IllegalArgumentException for a type name CDAP has no schema for
   */
  public static Schema schemaOf(String typeName, boolean nullable) {
    String t = typeName.trim().toLowerCase();
    Schema s;
    Matcher decimal = DECIMAL.matcher(t);
    if (decimal.matches()) {
      s = Schema.decimalOf(Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)));
    } else {
      switch (t) {
        case "boolean": s = Schema.of(Schema.Type.BOOLEAN); break;
        case "int": s = Schema.of(Schema.Type.INT); break;
        case "long": s = Schema.of(Schema.Type.LONG); break;
        case "float": s = Schema.of(Schema.Type.FLOAT); break;
        case "double": s = Schema.of(Schema.Type.DOUBLE); break;
        case "string": s = Schema.of(Schema.Type.STRING); break;
        case "bytes": s = Schema.of(Schema.Type.BYTES); break;
        case "date": s = Schema.of(Schema.LogicalType.DATE); break;
        case "timestamp": s = Schema.of(Schema.LogicalType.DATETIME); break;
        case "timestamptz": s = Schema.of(Schema.LogicalType.TIMESTAMP_MICROS); break;
        default: throw new IllegalArgumentException("dataset type '" + typeName + "' has no CDAP schema");
      }
    }
    return nullable ? Schema.nullableOf(s) : s;
  }

  /**
   * The dataset schema text of a CDAP record schema: one {@code 'name type'} per field, in order,
   * {@code key} after the key fields, {@code not null} after the other non-nullable fields.
   *
   * @throws IllegalArgumentException naming the first field whose type has no dataset type
   */
  public static String schemaText(Schema record, List<String> keyFields) {
    List<String> fields = new ArrayList<>();
    for (Schema.Field f : record.getFields()) {
      String type;
      try {
        type = typeName(f.getSchema());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("field '" + f.getName() + "': " + e.getMessage(), e);
      }
      boolean key = keyFields.contains(f.getName());
      fields.add(f.getName() + " " + type + (key ? " key" : f.getSchema().isNullable() ? "" : " not null"));
    }
    return String.join(", ", fields);
  }
}
