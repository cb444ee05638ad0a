package io.snapds.hive;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.common.type.Date;
import org.apache.hadoop.hive.common.type.HiveChar;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.common.type.HiveVarchar;
import org.apache.hadoop.hive.common.type.Timestamp;
import org.apache.hadoop.hive.serde2.typeinfo.CharTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.VarcharTypeInfo;

/**
 * Converts between cell bytes and the Java objects Hive's standard Java object inspectors read
 * ({@code String}, {@code Integer}, {@code HiveDecimal}, Hive's {@code Timestamp}...), following
 * the column's {@link ValueEncoding}. This is the column mapping's encoding (text forms, or HBase's
 * {@code Bytes.toBytes}), for tables over a dataset without a schema; a schema table reads and
 * writes the core's one encoding ({@code io.snapds.dataset.schema.ValueCodec}, through
 * {@code RowCodec}), so the two do not share code: their byte layouts differ (a timestamp in
 * milliseconds here, microseconds there; a decimal as text here).
 */
final class HiveValueCodec {
  private HiveValueCodec() {}

  /** The Hive value of {@code bytes}, or null when the bytes are null or do not decode. */
  static Object decode(byte[] bytes, PrimitiveTypeInfo type, ValueEncoding encoding) {
    if (bytes == null) {
      return null;
    }
    try {
      return encoding == ValueEncoding.BINARY ? decodeBinary(bytes, type) : decodeText(bytes, type);
    } catch (IllegalArgumentException e) { // includes NumberFormatException
      return null;
    }
  }

  private static Object decodeText(byte[] bytes, PrimitiveTypeInfo type) {
    if (type.getPrimitiveCategory() == org.apache.hadoop.hive.serde2.objectinspector.PrimitiveObjectInspector.PrimitiveCategory.BINARY) {
      return bytes.clone();
    }
    String s = new String(bytes, StandardCharsets.UTF_8);
    switch (type.getPrimitiveCategory()) {
      case STRING:
        return s;
      case VARCHAR:
        return new HiveVarchar(s, ((VarcharTypeInfo) type).getLength());
      case CHAR:
        return new HiveChar(s, ((CharTypeInfo) type).getLength());
      case BOOLEAN:
        if (s.equalsIgnoreCase("true")) {
          return Boolean.TRUE;
        }
        return s.equalsIgnoreCase("false") ? Boolean.FALSE : null;
      case BYTE:
        return Byte.valueOf(s.trim());
      case SHORT:
        return Short.valueOf(s.trim());
      case INT:
        return Integer.valueOf(s.trim());
      case LONG:
        return Long.valueOf(s.trim());
      case FLOAT:
        return Float.valueOf(s.trim());
      case DOUBLE:
        return Double.valueOf(s.trim());
      case DECIMAL:
        return HiveDecimal.create(new BigDecimal(s.trim()));
      case TIMESTAMP:
        return Timestamp.valueOf(s.trim());
      case DATE:
        return Date.valueOf(s.trim());
      default:
        throw new IllegalStateException("unsupported type " + type);
    }
  }

  private static Object decodeBinary(byte[] b, PrimitiveTypeInfo type) {
    switch (type.getPrimitiveCategory()) {
      case BOOLEAN:
        return b.length == 1 ? b[0] != 0 : null;
      case BYTE:
        return b.length == 1 ? b[0] : null;
      case SHORT:
        return b.length == Short.BYTES ? Bytes.toShort(b) : null;
      case INT:
        return b.length == Integer.BYTES ? Bytes.toInt(b) : null;
      case LONG:
        return b.length == Long.BYTES ? Bytes.toLong(b) : null;
      case FLOAT:
        return b.length == Float.BYTES ? Bytes.toFloat(b) : null;
      case DOUBLE:
        return b.length == Double.BYTES ? Bytes.toDouble(b) : null;
      case TIMESTAMP:
        return b.length == Long.BYTES ? Timestamp.ofEpochMilli(Bytes.toLong(b)) : null;
      case DATE:
        return b.length == Integer.BYTES ? Date.ofEpochDay(Bytes.toInt(b)) : null;
      default:
        return decodeText(b, type);
    }
  }

  /** The bytes of a Hive Java value ({@code PrimitiveObjectInspector.getPrimitiveJavaObject}); null stays null. */
  static byte[] encode(Object value, PrimitiveTypeInfo type, ValueEncoding encoding) {
    if (value == null) {
      return null;
    }
    if (encoding == ValueEncoding.BINARY) {
      switch (type.getPrimitiveCategory()) {
        case BOOLEAN:
          return new byte[] {(byte) ((Boolean) value ? 1 : 0)};
        case BYTE:
          return new byte[] {(Byte) value};
        case SHORT:
          return Bytes.toBytes((Short) value);
        case INT:
          return Bytes.toBytes((Integer) value);
        case LONG:
          return Bytes.toBytes((Long) value);
        case FLOAT:
          return Bytes.toBytes((Float) value);
        case DOUBLE:
          return Bytes.toBytes((Double) value);
        case TIMESTAMP:
          return Bytes.toBytes(((Timestamp) value).toEpochMilli());
        case DATE:
          return Bytes.toBytes(((Date) value).toEpochDay());
        default:
          break;
      }
    }
    if (value instanceof byte[]) {
      return ((byte[]) value).clone();
    }
    if (value instanceof HiveDecimal) {
      return Bytes.toBytes(((HiveDecimal) value).toString());
    }
    if (value instanceof HiveChar) {
      return Bytes.toBytes(((HiveChar) value).getStrippedValue());
    }
    return Bytes.toBytes(value.toString());
  }
}
