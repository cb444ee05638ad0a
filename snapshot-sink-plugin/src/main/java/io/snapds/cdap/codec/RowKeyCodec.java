package io.snapds.cdap.codec;

import static com.google.common.base.Preconditions.checkArgument;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a row key from one or more fields of a record, in an order-preserving binary encoding:
 * comparing two keys byte by byte (as HBase does) orders them as their field values, first field
 * first. Each field is encoded so that no encoded field is a prefix of another:
 * <ul>
 *   <li>int (and date, time-millis): 4 bytes big-endian with the sign bit flipped;</li>
 *   <li>long (and time-micros, timestamps): 8 bytes big-endian with the sign bit flipped;</li>
 *   <li>float, double: the IEEE bits, all flipped for negatives, the sign bit flipped otherwise;</li>
 *   <li>boolean: one byte, 0 or 1;</li>
 *   <li>string (UTF-8; datetime too) and bytes: every 0x00 written as 0x00 0xFF, then the
 *       terminator 0x00 0x01.</li>
 * </ul>
 * A single string or bytes key is encoded the same way (so that adding a field later keeps the
 * order). Immutable.
 */
public final class RowKeyCodec {
  private final List<String> fields;
  private final List<Schema> schemas;

  private RowKeyCodec(List<String> fields, List<Schema> schemas) {
    this.fields = List.copyOf(fields);
    this.schemas = List.copyOf(schemas);
  }

  /**
   * @throws IllegalArgumentException naming the field if a key field is missing from the schema
   *     or of a type a key cannot have
   */
  public static RowKeyCodec of(Schema recordSchema, List<String> keyFields) {
    checkArgument(!keyFields.isEmpty(), "at least one row key field is needed");
    List<Schema> schemas = new ArrayList<>();
    for (String name : keyFields) {
      Schema.Field field = recordSchema.getField(name);
      checkArgument(field != null, "row key field '%s' is not in the schema", name);
      String problem = SchemaTypes.keyProblem(field.getSchema()).orElse(null);
      checkArgument(problem == null, "row key field '%s': %s", name, problem);
      schemas.add(SchemaTypes.nonNullable(field.getSchema()));
    }
    return new RowKeyCodec(keyFields, schemas);
  }

  public List<String> fields() {
    return fields;
  }

  /** @throws IllegalArgumentException naming the field when a key field is null */
  public byte[] encode(StructuredRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    for (int i = 0; i < fields.size(); i++) {
      Object value = record.get(fields.get(i));
      checkArgument(value != null, "row key field '%s' is null", fields.get(i));
      encodeField(schemas.get(i).getType(), value, out);
    }
    return out.toByteArray();
  }

  private static void encodeField(Schema.Type type, Object value, ByteArrayOutputStream out) {
    switch (type) {
      case INT:
        writeInt(((Number) value).intValue() ^ Integer.MIN_VALUE, out);
        break;
      case LONG:
        writeLong(((Number) value).longValue() ^ Long.MIN_VALUE, out);
        break;
      case FLOAT: {
        int bits = Float.floatToIntBits((Float) value);
        writeInt(bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE, out);
        break;
      }
      case DOUBLE: {
        long bits = Double.doubleToLongBits((Double) value);
        writeLong(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE, out);
        break;
      }
      case BOOLEAN:
        out.write((Boolean) value ? 1 : 0);
        break;
      case STRING:
        writeTerminated(value.toString().getBytes(StandardCharsets.UTF_8), out);
        break;
      case BYTES:
        writeTerminated(Values.bytes(value), out);
        break;
      default:
        throw new IllegalStateException("not a key type: " + type);
    }
  }

  private static void writeInt(int v, ByteArrayOutputStream out) {
    out.writeBytes(ByteBuffer.allocate(Integer.BYTES).putInt(v).array());
  }

  private static void writeLong(long v, ByteArrayOutputStream out) {
    out.writeBytes(ByteBuffer.allocate(Long.BYTES).putLong(v).array());
  }

  private static void writeTerminated(byte[] bytes, ByteArrayOutputStream out) {
    for (byte b : bytes) {
      out.write(b);
      if (b == 0) {
        out.write(0xFF);
      }
    }
    out.write(0);
    out.write(1);
  }
}
