package io.snapds.dataset.schema;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type of a field: a primitive only (this release has no arrays, maps or nested records).
 * Immutable. The Java class of each type's values, and its text name:
 *
 * <table>
 *   <caption>Types</caption>
 *   <tr><th>Kind</th><th>text</th><th>Java value</th></tr>
 *   <tr><td>BOOLEAN</td><td>{@code boolean}</td><td>{@link Boolean}</td></tr>
 *   <tr><td>INT</td><td>{@code int}</td><td>{@link Integer} (Short, Byte accepted)</td></tr>
 *   <tr><td>LONG</td><td>{@code long}</td><td>{@link Long} (Integer, Short, Byte accepted)</td></tr>
 *   <tr><td>FLOAT</td><td>{@code float}</td><td>{@link Float}</td></tr>
 *   <tr><td>DOUBLE</td><td>{@code double}</td><td>{@link Double} (Float accepted)</td></tr>
 *   <tr><td>STRING</td><td>{@code string}</td><td>{@link String}</td></tr>
 *   <tr><td>BYTES</td><td>{@code bytes}</td><td>{@code byte[]}</td></tr>
 *   <tr><td>DECIMAL</td><td>{@code decimal(p,s)}</td><td>{@link java.math.BigDecimal}</td></tr>
 *   <tr><td>DATE</td><td>{@code date}</td><td>{@link java.time.LocalDate}</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@code timestamp}</td><td>{@link java.time.LocalDateTime} (no zone)</td></tr>
 *   <tr><td>TIMESTAMPTZ</td><td>{@code timestamptz}</td><td>{@link java.time.Instant} (UTC)</td></tr>
 * </table>
 *
 * <p>Timestamps keep microseconds; finer parts of a value are refused, not rounded.
 */
public final class Type {
  /** The kinds of type. */
  public enum Kind { BOOLEAN, INT, LONG, FLOAT, DOUBLE, STRING, BYTES, DECIMAL, DATE, TIMESTAMP, TIMESTAMPTZ }

  /** The largest decimal precision: 38 digits, as in Hive, Iceberg and CDAP. */
  public static final int MAX_PRECISION = 38;

  public static final Type BOOLEAN = new Type(Kind.BOOLEAN, 0, 0);
  public static final Type INT = new Type(Kind.INT, 0, 0);
  public static final Type LONG = new Type(Kind.LONG, 0, 0);
  public static final Type FLOAT = new Type(Kind.FLOAT, 0, 0);
  public static final Type DOUBLE = new Type(Kind.DOUBLE, 0, 0);
  public static final Type STRING = new Type(Kind.STRING, 0, 0);
  public static final Type BYTES = new Type(Kind.BYTES, 0, 0);
  public static final Type DATE = new Type(Kind.DATE, 0, 0);
  /** Microseconds, without a zone (a wall-clock date and time). */
  public static final Type TIMESTAMP = new Type(Kind.TIMESTAMP, 0, 0);
  /** Microseconds since the epoch, an instant (UTC). */
  public static final Type TIMESTAMPTZ = new Type(Kind.TIMESTAMPTZ, 0, 0);

  private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

  private final Kind kind;
  private final int precision;
  private final int scale;

  private Type(Kind kind, int precision, int scale) {
    this.kind = kind;
    this.precision = precision;
    this.scale = scale;
  }

  /**
   * A decimal of {@code precision} digits, {@code scale} of them after the point.
   *
   * @throws SchemaException unless 1 &lt;= precision &lt;= 38 and 0 &lt;= scale &lt;= precision
   */
  public static Type decimal(int precision, int scale) {
    if (precision < 1 || precision > MAX_PRECISION || scale < 0 || scale > precision) {
      throw new SchemaException(null, "invalid decimal(" + precision + "," + scale
          + "): need 1 <= precision <= " + MAX_PRECISION + " and 0 <= scale <= precision");
    }
    return new Type(Kind.DECIMAL, precision, scale);
  }

  /**
   * The type of a text name as {@link #toString()} writes it (case-insensitive).
   *
   * @throws SchemaException for an unknown name
   */
  public static Type parse(String text) {
    String t = text.trim().toLowerCase(java.util.Locale.ROOT);
    Matcher m = DECIMAL.matcher(t);
    if (m.matches()) {
      try {
        return decimal(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      } catch (NumberFormatException e) {
        throw new SchemaException(null, "invalid decimal type '" + text + "'");
      }
    }
    switch (t) {
      case "boolean": return BOOLEAN;
      case "int": return INT;
      case "long": return LONG;
      case "float": return FLOAT;
      case "double": return DOUBLE;
      case "string": return STRING;
      case "bytes": return BYTES;
      case "date": return DATE;
      case "timestamp": return TIMESTAMP;
      case "timestamptz": return TIMESTAMPTZ;
      default:
        throw new SchemaException(null, "unknown type '" + text + "' (known: boolean, int, long, float, double, "
            + "string, bytes, decimal(p,s), date, timestamp, timestamptz)");
    }
  }

  public Kind kind() {
    return kind;
  }

  /** Digits of a decimal; 0 for other types. */
  public int precision() {
    return precision;
  }

  /** Digits after the point of a decimal; 0 for other types. */
  public int scale() {
    return scale;
  }

  /** Whether a key may hold this type: every type but decimal (its encoding does not sort). */
  public boolean isKeyable() {
    return kind != Kind.DECIMAL;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Type t && t.kind == kind && t.precision == precision && t.scale == scale;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, precision, scale);
  }

  /** The text name: {@code long}, {@code decimal(10,2)}, {@code timestamptz}. */
  @Override
  public String toString() {
    return kind == Kind.DECIMAL ? "decimal(" + precision + "," + scale + ")"
        : kind.name().toLowerCase(java.util.Locale.ROOT);
  }
}
