package io.snapds.dataset.schema;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The order-preserving encoding of a schema's key fields into the user's row key (schema
 * {@code format.version} 1): the fields one after another, in key order, each self-delimiting,
 * so that the unsigned byte order of two keys ({@code Bytes.BYTES_COMPARATOR}) is the order of
 * their values, field by field, and the encoding of the first fields is a prefix of the whole key
 * (a range scan on a key prefix is a byte-range scan).
 *
 * <ul>
 *   <li>boolean: one byte, 0 or 1;
 *   <li>int, date (days): 4 bytes, long, timestamp, timestamptz (microseconds): 8 bytes,
 *       big-endian with the sign bit flipped;
 *   <li>float 4 bytes, double 8 bytes: the IEEE bits, all flipped for a negative number and only
 *       the sign bit for a positive one (order of {@link Float#compare}: -0.0 before 0.0, NaN
 *       last);
 *   <li>string (UTF-8, so strings sort by code point) and bytes: each 0x00 written as 0x00 0x01,
 *       then a 0x00 0x00 terminator;
 *   <li>decimal: not allowed in keys ({@link Field#key} refuses it).
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class KeyCodec {
  private final Schema schema;

  public KeyCodec(Schema schema) {
    this.schema = schema;
  }

  /**
   * The row key of these key values, in {@link Schema#keyFields()} order.
   *
   * @throws IllegalArgumentException if the number of values is not the number of key fields
   * @throws InvalidValueException if a value does not fit its field, or is null
   */
  public byte[] encode(List<?> keyValues) {
    if (keyValues.size() != schema.keyFields().size()) {
      throw new IllegalArgumentException("expected " + schema.keyFields().size() + " key values for "
          + schema.keyFields() + ", got " + keyValues.size() + ": " + keyValues);
    }
    return encodePrefix(keyValues);
  }

  /**
   * The encoding of the first {@code keyValues.size()} key fields: every row key whose first
   * fields have these values starts with these bytes.
   *
   * @throws IllegalArgumentException if there are more values than key fields
   * @throws InvalidValueException if a value does not fit its field, or is null
   */
  public byte[] encodePrefix(List<?> keyValues) {
    List<Field> keys = schema.keyFields();
    if (keyValues.size() > keys.size()) {
      throw new IllegalArgumentException("expected at most " + keys.size() + " key values for " + keys
          + ", got " + keyValues.size() + ": " + keyValues);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < keyValues.size(); i++) {
      Field f = keys.get(i);
      writeField(out, f, ValueCodec.check(f, keyValues.get(i)));
    }
    return out.toByteArray();
  }

  /**
   * The key values of a row key that {@link #encode} wrote, in key order.
   *
   * @throws InvalidValueException if the bytes are not such a key, naming the field where
   *     decoding failed
   */
  public List<Object> decode(byte[] rowKey) {
    Object[] out = new Object[schema.keyFields().size()];
    parse(rowKey, new Parts() {
      @Override
      public void fixed(int keyIndex, Field field, long value) {
        out[keyIndex] = value(field, value);
      }

      @Override
      public void variable(int keyIndex, Field field, byte[] value) {
        out[keyIndex] = field.type().kind() == Type.Kind.STRING ? new String(value, StandardCharsets.UTF_8) : value;
      }
    });
    return Collections.unmodifiableList(Arrays.asList(out));
  }

  /** What {@link #parse} finds in a row key, field by field in key order. */
  interface Parts {
    /**
     * A fixed-width field: a boolean's 0 or 1, an int's or a date's days, a long's or a
     * timestamp's microseconds, a float's or a double's IEEE bits.
     */
    void fixed(int keyIndex, Field field, long value);

    /** A string's UTF-8 (checked) or a bytes field's value. */
    void variable(int keyIndex, Field field, byte[] value);
  }

  /**
   * Parses every key field of a row key that {@link #encode} wrote, handing each to {@code parts}
   * in its primitive form: the one reading of keys, for {@link #decode} and {@link RowDecoder}.
   *
   * @throws InvalidValueException if the bytes are not such a key (a bad boolean, a string that is
   *     not UTF-8, a bad escape, a key that ends inside a field or goes on after the last), naming
   *     the field where parsing failed
   */
  void parse(byte[] rowKey, Parts parts) {
    ByteBuffer in = ByteBuffer.wrap(rowKey);
    List<Field> keys = schema.keyFields();
    for (int i = 0; i < keys.size(); i++) {
      Field f = keys.get(i);
      try {
        switch (f.type().kind()) {
          case BOOLEAN -> {
            byte b = in.get();
            if (b != 0 && b != 1) {
              throw corrupt(f, rowKey, "byte " + b + " is not a boolean");
            }
            parts.fixed(i, f, b);
          }
          case INT, DATE -> parts.fixed(i, f, unorderedInt(in.getInt()));
          case LONG, TIMESTAMP, TIMESTAMPTZ -> parts.fixed(i, f, unorderedLong(in.getLong()));
          case FLOAT -> parts.fixed(i, f, floatBits(in.getInt()));
          case DOUBLE -> parts.fixed(i, f, doubleBits(in.getLong()));
          case STRING -> {
            byte[] utf8 = readEscaped(in, f, rowKey);
            ValueCodec.checkStoredUtf8(f, utf8);
            parts.variable(i, f, utf8);
          }
          case BYTES -> parts.variable(i, f, readEscaped(in, f, rowKey));
          default -> throw new SchemaException(f.name(), "key field '" + f.name() + "' has type " + f.type()
              + ", which keys do not support");
        }
      } catch (BufferUnderflowException e) {
        throw corrupt(f, rowKey, "the key ends inside this field");
      }
    }
    if (in.hasRemaining()) {
      throw corrupt(keys.get(keys.size() - 1), rowKey, in.remaining() + " bytes after the last key field");
    }
  }

  /** The Java value of a fixed-width key field {@link #parse} found. */
  private static Object value(Field f, long v) {
    return switch (f.type().kind()) {
      case BOOLEAN -> v == 1;
      case INT -> (int) v;
      case DATE -> LocalDate.ofEpochDay(v);
      case LONG -> v;
      case TIMESTAMP -> ValueCodec.localDateTime(v);
      case TIMESTAMPTZ -> ValueCodec.instant(v);
      case FLOAT -> Float.intBitsToFloat((int) v);
      case DOUBLE -> Double.longBitsToDouble(v);
      default -> throw new AssertionError(f);
    };
  }

  private static void writeField(ByteArrayOutputStream out, Field f, Object v) {
    switch (f.type().kind()) {
      case BOOLEAN: out.write((Boolean) v ? 1 : 0); break;
      case INT: writeInt(out, orderedInt((Integer) v)); break;
      case DATE: writeInt(out, orderedInt((int) ((LocalDate) v).toEpochDay())); break;
      case LONG: writeLong(out, orderedLong((Long) v)); break;
      case TIMESTAMP: writeLong(out, orderedLong(ValueCodec.micros(f, (LocalDateTime) v))); break;
      case TIMESTAMPTZ: writeLong(out, orderedLong(ValueCodec.micros(f, (Instant) v))); break;
      case FLOAT: writeInt(out, orderedFloat((Float) v)); break;
      case DOUBLE: writeLong(out, orderedDouble((Double) v)); break;
      case STRING: writeEscaped(out, ValueCodec.utf8(f, (String) v)); break;
      case BYTES: writeEscaped(out, (byte[]) v); break;
      default: throw new SchemaException(f.name(), "key field '" + f.name() + "' has type " + f.type()
          + ", which keys do not support");
    }
  }

  /** An int (or date's days) whose big-endian bytes sort as the values do: the sign bit flipped. */
  static int orderedInt(int v) {
    return v ^ Integer.MIN_VALUE;
  }

  /** A long (or timestamp's microseconds) whose big-endian bytes sort as the values do. */
  static long orderedLong(long v) {
    return v ^ Long.MIN_VALUE;
  }

  /** A float's bits, sorting as {@link Float#compare}: all flipped if negative, else the sign bit. */
  static int orderedFloat(float v) {
    int bits = Float.floatToIntBits(v);
    return bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE;
  }

  /** A double's bits, sorting as {@link Double#compare}. */
  static long orderedDouble(double v) {
    long bits = Double.doubleToLongBits(v);
    return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
  }

  /** The inverse of {@link #orderedInt}. */
  static int unorderedInt(int e) {
    return e ^ Integer.MIN_VALUE;
  }

  /** The inverse of {@link #orderedLong}. */
  static long unorderedLong(long e) {
    return e ^ Long.MIN_VALUE;
  }

  /** The IEEE bits of the float whose {@link #orderedFloat} is {@code e}. */
  static int floatBits(int e) {
    return e < 0 ? e ^ Integer.MIN_VALUE : ~e;
  }

  /** The IEEE bits of the double whose {@link #orderedDouble} is {@code e}. */
  static long doubleBits(long e) {
    return e < 0 ? e ^ Long.MIN_VALUE : ~e;
  }

  private static void writeInt(ByteArrayOutputStream out, int v) {
    out.writeBytes(Bytes.toBytes(v));
  }

  private static void writeLong(ByteArrayOutputStream out, long v) {
    out.writeBytes(Bytes.toBytes(v));
  }

  /** Bytes (or a string's UTF-8) self-delimited: each 0x00 as 0x00 0x01, then 0x00 0x00. */
  static void writeEscaped(ByteArrayOutputStream out, byte[] b) {
    for (byte x : b) {
      out.write(x);
      if (x == 0) {
        out.write(1);
      }
    }
    out.write(0);
    out.write(0);
  }

  /** The bytes {@link #writeEscaped} wrote at {@code in}'s position, which moves past them. */
  private static byte[] readEscaped(ByteBuffer in, Field f, byte[] key) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      byte x = in.get();
      if (x != 0) {
        out.write(x);
        continue;
      }
      byte next = in.get();
      if (next == 0) {
        return out.toByteArray();
      }
      if (next != 1) {
        throw corrupt(f, key, "0x00 followed by " + next + " (expected 0x00 0x01 or 0x00 0x00)");
      }
      out.write(0);
    }
  }

  private static InvalidValueException corrupt(Field f, byte[] key, String what) {
    return new InvalidValueException(f.name(), key, "row key " + Bytes.toStringBinary(key)
        + " does not decode at key field '" + f.name() + "' (" + f.type() + "): " + what);
  }
}
