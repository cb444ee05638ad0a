package io.snapds.cdap.codec;

import io.cdap.cdap.api.data.schema.Schema;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One field value to the bytes of one cell and back, by the field's (non-null) schema:
 * <ul>
 *   <li>string, enum (its symbol), datetime: UTF-8;</li>
 *   <li>bytes: as is; decimal: its unscaled value, two's complement big-endian (the scale is the
 *       schema's);</li>
 *   <li>boolean: one byte 0 or 1; int, date, time-millis: 4 bytes big-endian; long, time-micros,
 *       timestamp-millis, timestamp-micros: 8 bytes big-endian; float: 4 bytes and double: 8 bytes
 *       of IEEE 754 bits;</li>
 *   <li>array, map, record: JSON text in UTF-8, see {@link JsonValueCodec}.</li>
 * </ul>
 * Values are the ones a {@code StructuredRecord} holds internally (a date is its int of days).
 * This is the cell encoding of a dataset without a schema ({@link RecordCodec}); a dataset with a
 * schema is written with the core's one encoding ({@code io.snapds.dataset.schema.ValueCodec},
 * through {@link SchemaRecordCodec}). The two do not share code: this one also stores CDAP's enums,
 * arrays, maps and records, and reads cells the core's would refuse (a boolean byte other than 0
 * or 1, bytes that are not UTF-8), which stored pipelines' data may hold.
 */
final class CdapValueCodec {
  private CdapValueCodec() {
  }

  static byte[] encode(Schema schema, Object value) {
    switch (schema.getType()) {
      case STRING:
      case ENUM:
        return value.toString().getBytes(StandardCharsets.UTF_8);
      case BYTES:
        return Values.bytes(value);
      case BOOLEAN:
        return new byte[] {(byte) ((Boolean) value ? 1 : 0)};
      case INT:
        return ByteBuffer.allocate(Integer.BYTES).putInt(((Number) value).intValue()).array();
      case LONG:
        return ByteBuffer.allocate(Long.BYTES).putLong(((Number) value).longValue()).array();
      case FLOAT:
        return ByteBuffer.allocate(Float.BYTES).putFloat((Float) value).array();
      case DOUBLE:
        return ByteBuffer.allocate(Double.BYTES).putDouble((Double) value).array();
      case ARRAY:
      case MAP:
      case RECORD:
        return JsonValueCodec.toJson(schema, value).getBytes(StandardCharsets.UTF_8);
      default:
        throw new IllegalArgumentException("cannot store a value of type " + schema.getType());
    }
  }

  static Object decode(Schema schema, byte[] bytes) {
    switch (schema.getType()) {
      case STRING:
      case ENUM:
        return new String(bytes, StandardCharsets.UTF_8);
      case BYTES:
        return bytes.clone();
      case BOOLEAN:
        checkLength(schema, bytes, 1);
        return bytes[0] != 0;
      case INT:
        checkLength(schema, bytes, Integer.BYTES);
        return ByteBuffer.wrap(bytes).getInt();
      case LONG:
        checkLength(schema, bytes, Long.BYTES);
        return ByteBuffer.wrap(bytes).getLong();
      case FLOAT:
        checkLength(schema, bytes, Float.BYTES);
        return ByteBuffer.wrap(bytes).getFloat();
      case DOUBLE:
        checkLength(schema, bytes, Double.BYTES);
        return ByteBuffer.wrap(bytes).getDouble();
      case ARRAY:
      case MAP:
      case RECORD:
        return JsonValueCodec.fromJson(schema, new String(bytes, StandardCharsets.UTF_8));
      default:
        throw new IllegalArgumentException("cannot read a value of type " + schema.getType());
    }
  }

  private static void checkLength(Schema schema, byte[] bytes, int expected) {
    if (bytes.length != expected) {
      throw new IllegalArgumentException("a " + SchemaTypes.describe(schema) + " cell must have " + expected
          + " bytes, got " + bytes.length);
    }
  }
}
