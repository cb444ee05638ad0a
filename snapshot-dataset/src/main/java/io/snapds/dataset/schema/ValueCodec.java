package io.snapds.dataset.schema;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The one binary encoding of a cell value per type (schema {@code format.version} 1, documented
 * in {@code docs/design.md}, "Schemas"): int and date 4 bytes, long and timestamps 8 bytes, all
 * big-endian two's complement; float and double their IEEE 754 bits big-endian (NaN canonical);
 * boolean one byte 0 or 1; string UTF-8; bytes as they are; decimal the unscaled value's
 * two's-complement big-endian bytes (shortest form), its scale fixed by the field's type. A date
 * is days since 1970-01-01, a timestamp microseconds since 1970-01-01T00:00 (UTC for
 * {@code timestamptz}, wall clock for {@code timestamp}). A null value has no cell.
 *
 * <p>Every method names the field in its errors; none accepts a value silently changed (a decimal
 * that would need rounding, a timestamp with nanoseconds, a string with a lone surrogate).
 */
public final class ValueCodec {
  /** 10^0 ... 10^18: the bounds of a decimal's unscaled value by precision, while it fits a long. */
  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private ValueCodec() {
  }

  /**
   * The value in its canonical Java class for the field (see {@link Type}): widened where lossless
   * (Integer to Long, Float to Double), a decimal at the field's scale, a copy of a byte array.
   *
   * @return the canonical value, or null for a null value of a nullable field
   * @throws InvalidValueException if the value does not fit, or is null in a key or non-null field
   */
  public static Object check(Field field, Object value) {
    if (value == null) {
      if (!field.isNullable()) {
        throw new InvalidValueException(field.name(), null, (field.isKey() ? "key field '" : "non-null field '")
            + field.name() + "' (" + field.type() + ") is null");
      }
      return null;
    }
    Type t = field.type();
    switch (t.kind()) {
      case BOOLEAN:
        if (value instanceof Boolean) {
          return value;
        }
        break;
      case INT:
        if (value instanceof Integer) {
          return value;
        }
        if (value instanceof Short || value instanceof Byte) {
          return ((Number) value).intValue();
        }
        break;
      case LONG:
        if (value instanceof Long) {
          return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
          return ((Number) value).longValue();
        }
        break;
      case FLOAT:
        if (value instanceof Float) {
          return value;
        }
        break;
      case DOUBLE:
        if (value instanceof Double) {
          return value;
        }
        if (value instanceof Float f) {
          return f.doubleValue();
        }
        break;
      case STRING:
        if (value instanceof String s) {
          utf8(field, s); // refuses lone surrogates now rather than at write
          return s;
        }
        break;
      case BYTES:
        if (value instanceof byte[] b) {
          return b.clone();
        }
        break;
      case DECIMAL:
        if (value instanceof BigDecimal d) {
          return decimal(field, d);
        }
        break;
      case DATE:
        if (value instanceof LocalDate d) {
          long days = d.toEpochDay();
          if (days != (int) days) {
            throw invalid(field, value, "is out of the date range (int days since 1970-01-01)");
          }
          return d;
        }
        break;
      case TIMESTAMP:
        if (value instanceof LocalDateTime ldt) {
          micros(field, value, ldt.toEpochSecond(ZoneOffset.UTC), ldt.getNano());
          return ldt;
        }
        break;
      case TIMESTAMPTZ:
        if (value instanceof Instant i) {
          micros(field, value, i.getEpochSecond(), i.getNano());
          return i;
        }
        break;
      default:
        throw new AssertionError(t);
    }
    throw invalid(field, value, "has the wrong class " + value.getClass().getName());
  }

  /**
   * The cell bytes of a non-null value.
   *
   * @throws InvalidValueException as {@link #check}, and for null
   */
  public static byte[] encode(Field field, Object value) {
    Object v = check(field, value);
    if (v == null) {
      throw new InvalidValueException(field.name(), null, "field '" + field.name() + "' has no encoding for null");
    }
    switch (field.type().kind()) {
      case BOOLEAN: return new byte[] {(byte) ((Boolean) v ? 1 : 0)};
      case INT: return Bytes.toBytes((Integer) v);
      case LONG: return Bytes.toBytes((Long) v);
      case FLOAT: return encodeFloat((Float) v);
      case DOUBLE: return encodeDouble((Double) v);
      case STRING: return utf8(field, (String) v);
      case BYTES: return (byte[]) v;
      case DECIMAL: return ((BigDecimal) v).unscaledValue().toByteArray();
      case DATE: return Bytes.toBytes((int) ((LocalDate) v).toEpochDay());
      case TIMESTAMP: return Bytes.toBytes(micros(field, (LocalDateTime) v));
      case TIMESTAMPTZ: return Bytes.toBytes(micros(field, (Instant) v));
      default: throw new AssertionError(field.type());
    }
  }

  /** A float's cell: its IEEE bits (NaN canonical), big-endian. */
  static byte[] encodeFloat(float v) {
    return Bytes.toBytes(Float.floatToIntBits(v));
  }

  /** A double's cell: its IEEE bits (NaN canonical), big-endian. */
  static byte[] encodeDouble(double v) {
    return Bytes.toBytes(Double.doubleToLongBits(v));
  }

  /**
   * A decimal's cell from its unscaled value at the field's scale: the shortest two's-complement
   * big-endian bytes, as {@code BigInteger.toByteArray}.
   *
   * @throws InvalidValueException if it has more digits than the field's precision
   */
  static byte[] encodeUnscaled(Field field, long unscaled) {
    int precision = field.type().precision();
    if (precision < POWERS_OF_TEN.length
        && (unscaled == Long.MIN_VALUE || Math.abs(unscaled) >= POWERS_OF_TEN[precision])) {
      throw invalid(field, BigDecimal.valueOf(unscaled, field.type().scale()),
          "has more than " + precision + " digits");
    }
    int bits = 64 - Long.numberOfLeadingZeros(unscaled < 0 ? ~unscaled : unscaled);
    byte[] out = new byte[bits / 8 + 1];
    for (int i = out.length - 1; i >= 0; i--) {
      out[i] = (byte) unscaled;
      unscaled >>= 8;
    }
    return out;
  }

  /**
   * Checks that a string field's bytes are UTF-8 (a stored string must decode).
   *
   * @throws InvalidValueException if they are not
   */
  static void checkUtf8(Field field, byte[] utf8) {
    if (!isUtf8(utf8)) {
      throw invalid(field, utf8, "is not UTF-8");
    }
  }

  /**
   * Checks that a stored string's bytes are UTF-8.
   *
   * @throws InvalidValueException naming the field and the bytes if they are not
   */
  static void checkStoredUtf8(Field field, byte[] utf8) {
    if (!isUtf8(utf8)) {
      throw corrupt(field, utf8, "is not UTF-8");
    }
  }

  private static boolean isUtf8(byte[] b) {
    for (byte x : b) {
      if (x < 0) { // not all ASCII: the full check
        try {
          StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
          return true;
        } catch (CharacterCodingException e) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * A boolean cell's value.
   *
   * @throws InvalidValueException if it is not one byte 0 or 1
   */
  static boolean decodeBoolean(Field field, byte[] bytes) {
    length(field, bytes, 1);
    if (bytes[0] != 0 && bytes[0] != 1) {
      throw corrupt(field, bytes, "is not a boolean (0 or 1)");
    }
    return bytes[0] == 1;
  }

  /**
   * A 4-byte cell's int (an int, a date's days, a float's bits).
   *
   * @throws InvalidValueException if it is not 4 bytes
   */
  static int decodeInt(Field field, byte[] bytes) {
    return Bytes.toInt(length(field, bytes, 4));
  }

  /**
   * An 8-byte cell's long (a long, a timestamp's microseconds, a double's bits).
   *
   * @throws InvalidValueException if it is not 8 bytes
   */
  static long decodeLong(Field field, byte[] bytes) {
    return Bytes.toLong(length(field, bytes, 8));
  }

  /**
   * The value that {@link #encode} wrote as these bytes.
   *
   * @throws InvalidValueException if the bytes are not a value of the field's type (wrong length,
   *     bad UTF-8), naming the field and the bytes
   */
  public static Object decode(Field field, byte[] bytes) {
    Type t = field.type();
    switch (t.kind()) {
      case BOOLEAN: return decodeBoolean(field, bytes);
      case INT: return decodeInt(field, bytes);
      case LONG: return decodeLong(field, bytes);
      case FLOAT: return Float.intBitsToFloat(decodeInt(field, bytes));
      case DOUBLE: return Double.longBitsToDouble(decodeLong(field, bytes));
      case STRING:
        checkStoredUtf8(field, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
      case BYTES: return bytes.clone();
      case DECIMAL:
        if (bytes.length == 0) {
          throw corrupt(field, bytes, "is empty, not a decimal");
        }
        BigDecimal d = new BigDecimal(new BigInteger(bytes), t.scale());
        if (d.precision() > t.precision()) {
          throw corrupt(field, bytes, "has more digits than " + t);
        }
        return d;
      case DATE: return LocalDate.ofEpochDay(decodeInt(field, bytes));
      case TIMESTAMP: return localDateTime(decodeLong(field, bytes));
      case TIMESTAMPTZ: return instant(decodeLong(field, bytes));
      default: throw new AssertionError(t);
    }
  }

  /** The wall-clock timestamp of microseconds since 1970-01-01T00:00. */
  static LocalDateTime localDateTime(long micros) {
    return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
        (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
  }

  /** The instant of microseconds since the epoch. */
  static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
  }

  /** Microseconds since 1970-01-01T00:00 of a wall-clock timestamp. */
  static long micros(Field field, LocalDateTime v) {
    return micros(field, v, v.toEpochSecond(ZoneOffset.UTC), v.getNano());
  }

  /** Microseconds since the epoch of an instant. */
  static long micros(Field field, Instant v) {
    return micros(field, v, v.getEpochSecond(), v.getNano());
  }

  private static long micros(Field field, Object value, long seconds, int nanos) {
    if (nanos % 1000 != 0) {
      throw invalid(field, value, "has nanoseconds; timestamps keep microseconds");
    }
    try {
      if (seconds < 0 && nanos > 0) {
        // the lowest microseconds (from Long.MIN_VALUE) have seconds * 10^6 below the long range:
        // computed from the next second down, so every long a stored timestamp holds is written back
        return Math.addExact(Math.multiplyExact(seconds + 1, 1_000_000L), nanos / 1000 - 1_000_000L);
      }
      return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), nanos / 1000);
    } catch (ArithmeticException e) {
      throw invalid(field, value, "is out of the timestamp range (long microseconds since 1970)");
    }
  }

  private static BigDecimal decimal(Field field, BigDecimal d) {
    Type t = field.type();
    BigDecimal scaled;
    try {
      scaled = d.setScale(t.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw invalid(field, d, "has more than " + t.scale() + " digits after the point");
    }
    if (scaled.precision() > t.precision()) {
      throw invalid(field, d, "has more than " + t.precision() + " digits");
    }
    return scaled;
  }

  static byte[] utf8(Field field, String s) {
    try {
      ByteBuffer b = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(s));
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    } catch (CharacterCodingException e) {
      throw invalid(field, s, "is not valid Unicode (a lone surrogate)");
    }
  }

  private static byte[] length(Field field, byte[] bytes, int n) {
    if (bytes.length != n) {
      throw corrupt(field, bytes, "has " + bytes.length + " bytes, not " + n);
    }
    return bytes;
  }

  static InvalidValueException invalid(Field field, Object value, String what) {
    return new InvalidValueException(field.name(), value, "value " + show(value) + " of field '" + field.name()
        + "' (" + field.type() + ") " + what);
  }

  private static InvalidValueException corrupt(Field field, byte[] bytes, String what) {
    return new InvalidValueException(field.name(), bytes, "stored value " + Bytes.toStringBinary(bytes)
        + " of field '" + field.name() + "' (" + field.type() + ") " + what);
  }

  private static String show(Object value) {
    if (value instanceof byte[] b) {
      return Bytes.toStringBinary(b);
    }
    return value instanceof String ? "'" + value + "'" : String.valueOf(value);
  }
}
