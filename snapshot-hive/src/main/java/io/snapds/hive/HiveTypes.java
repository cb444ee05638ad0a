package io.snapds.hive;

import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Type;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.hadoop.hive.common.type.Date;
import org.apache.hadoop.hive.common.type.HiveChar;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.common.type.HiveVarchar;
import org.apache.hadoop.hive.common.type.Timestamp;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoFactory;

/**
 * How the types of a dataset schema read in Hive, and their values as the Java objects Hive's
 * standard Java object inspectors take (and back, for constants of key conditions):
 * <table>
 *   <caption>Dataset types in Hive</caption>
 *   <tr><th>schema</th><th>Hive</th><th>value</th></tr>
 *   <tr><td>boolean, int, long, float, double, string</td><td>boolean, int, bigint, float, double, string</td>
 *       <td>the same Java value</td></tr>
 *   <tr><td>bytes</td><td>binary</td><td>byte[]</td></tr>
 *   <tr><td>decimal(p,s)</td><td>decimal(p,s)</td><td>HiveDecimal</td></tr>
 *   <tr><td>date</td><td>date</td><td>Hive Date, same day</td></tr>
 *   <tr><td>timestamp (microseconds, no zone)</td><td>timestamp</td><td>the same wall-clock time</td></tr>
 *   <tr><td>timestamptz (microseconds, an instant)</td><td>timestamp</td><td>the instant's UTC wall clock</td></tr>
 * </table>
 */
final class HiveTypes {
  private HiveTypes() {}

  static PrimitiveTypeInfo typeInfo(Type type) {
    switch (type.kind()) {
      case BOOLEAN: return TypeInfoFactory.booleanTypeInfo;
      case INT: return TypeInfoFactory.intTypeInfo;
      case LONG: return TypeInfoFactory.longTypeInfo;
      case FLOAT: return TypeInfoFactory.floatTypeInfo;
      case DOUBLE: return TypeInfoFactory.doubleTypeInfo;
      case STRING: return TypeInfoFactory.stringTypeInfo;
      case BYTES: return TypeInfoFactory.binaryTypeInfo;
      case DECIMAL: return TypeInfoFactory.getDecimalTypeInfo(type.precision(), type.scale());
      case DATE: return TypeInfoFactory.dateTypeInfo;
      case TIMESTAMP:
      case TIMESTAMPTZ: return TypeInfoFactory.timestampTypeInfo;
      default: throw new IllegalStateException("no Hive type for " + type);
    }
  }

  /** The Hive object of a dataset value of {@code field} (null stays null). */
  static Object toHive(Field field, Object value) {
    if (value == null) {
      return null;
    }
    switch (field.type().kind()) {
      case DECIMAL: return HiveDecimal.create((BigDecimal) value);
      case DATE: return Date.ofEpochDay((int) ((LocalDate) value).toEpochDay());
      case TIMESTAMP: {
        LocalDateTime t = (LocalDateTime) value;
        return Timestamp.ofEpochSecond(t.toEpochSecond(ZoneOffset.UTC), t.getNano());
      }
      case TIMESTAMPTZ: {
        Instant t = (Instant) value;
        return Timestamp.ofEpochSecond(t.getEpochSecond(), t.getNano());
      }
      case BYTES: return ((byte[]) value).clone();
      default: return value;
    }
  }

  /**
   * The dataset value of a Hive constant for {@code field} (the inverse of {@link #toHive}), or
   * null when the constant has no such value.
   */
  static Object fromHive(Field field, Object hive) {
    if (hive == null) {
      return null;
    }
    switch (field.type().kind()) {
      case DECIMAL: // HiveDecimal trims trailing zeros: back to the field's scale
        return hive instanceof HiveDecimal d ? d.bigDecimalValue().setScale(field.type().scale()) : null;
      case DATE: return hive instanceof Date d ? LocalDate.ofEpochDay(d.toEpochDay()) : null;
      case TIMESTAMP:
      case TIMESTAMPTZ: {
        if (!(hive instanceof Timestamp t)) {
          return null;
        }
        LocalDateTime local = LocalDateTime.ofEpochSecond(t.toEpochSecond(), t.getNanos(), ZoneOffset.UTC);
        return field.type().kind() == Type.Kind.TIMESTAMP ? local : local.toInstant(ZoneOffset.UTC);
      }
      case STRING:
        return hive instanceof HiveVarchar || hive instanceof HiveChar || hive instanceof String ? hive.toString() : null;
      default: return hive;
    }
  }
}
