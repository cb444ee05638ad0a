package io.snapds.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Type;
import io.snapds.dataset.schema.ValueCodec;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The text form of a typed value, both ways: what {@code load} parses from a CSV or JSON Lines
 * field, and what {@code scan}/{@code get} print (the same text reads back to the same value).
 *
 * <table>
 *   <caption>text and JSON forms</caption>
 *   <tr><th>type</th><th>text (input, table output)</th><th>JSON output</th></tr>
 *   <tr><td>boolean</td><td>{@code true} / {@code false}</td><td>true / false</td></tr>
 *   <tr><td>int, long</td><td>decimal digits</td><td>number</td></tr>
 *   <tr><td>float, double</td><td>Java's decimal form ({@code 1.5}, {@code -3.4028235E38}, {@code NaN},
 *       {@code Infinity})</td><td>number ("NaN", "Infinity", "-Infinity" as strings)</td></tr>
 *   <tr><td>string</td><td>as is</td><td>string</td></tr>
 *   <tr><td>bytes</td><td>base64 (RFC 4648, with padding)</td><td>base64 string</td></tr>
 *   <tr><td>decimal(p,s)</td><td>plain decimal, at most s fraction digits</td><td>string, plain, exactly s
 *       fraction digits ({@code "-12.3400"}), so no JSON reader rounds it through a double</td></tr>
 *   <tr><td>date</td><td>ISO {@code 2026-11-30}</td><td>same, string</td></tr>
 *   <tr><td>timestamp</td><td>ISO local {@code 2026-11-30T08:15:30.123456} (a space for the T is read too)</td>
 *       <td>string, always six fraction digits</td></tr>
 *   <tr><td>timestamptz</td><td>ISO with an offset ({@code Z}, {@code +02:00})</td><td>string in UTC,
 *       {@code 2026-11-30T08:15:30.123456Z}</td></tr>
 * </table>
 */
public final class ValueText {
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
  private static final Pattern FLOATING =
      Pattern.compile("[+-]?(NaN|Infinity|(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?)");
  private static final DateTimeFormatter MICROS = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral('T').appendPattern("HH:mm:ss.SSSSSS")
      .toFormatter(Locale.ROOT);

  private ValueText() {}

  /**
   * The value of {@code text} for {@code field}, checked against its type (null stays null, and
   * is refused by the check for a key or non-null field).
   *
   * @throws IllegalArgumentException naming the field, its type and the text when it does not
   *     parse as the type; {@link io.snapds.dataset.schema.InvalidValueException} when it parses
   *     but does not fit (a decimal with too many digits, an int out of range)
   */
  public static Object parse(Field field, String text) {
    if (text == null) {
      return ValueCodec.check(field, null);
    }
    Object value;
    try {
      value = parseUnchecked(field.type(), text);
    } catch (NumberFormatException | DateTimeParseException e) {
      value = null;
    }
    if (value == null) {
      throw new IllegalArgumentException("value '" + text + "' of field '" + field.name() + "' (" + field.type()
          + ") is not " + expected(field.type()));
    }
    return ValueCodec.check(field, value);
  }

  private static Object parseUnchecked(Type type, String text) {
    switch (type.kind()) {
      case BOOLEAN:
        return "true".equalsIgnoreCase(text) ? Boolean.TRUE : "false".equalsIgnoreCase(text) ? Boolean.FALSE : null;
      case INT:
        return INTEGER.matcher(text).matches() ? Integer.valueOf(text) : null;
      case LONG:
        return INTEGER.matcher(text).matches() ? Long.valueOf(text) : null;
      case FLOAT: {
        if (!FLOATING.matcher(text).matches()) {
          return null;
        }
        float f = Float.parseFloat(text);
        return Float.isInfinite(f) && !text.contains("Infinity") ? null : f; // an overflow is not infinity
      }
      case DOUBLE: {
        if (!FLOATING.matcher(text).matches()) {
          return null;
        }
        double d = Double.parseDouble(text);
        return Double.isInfinite(d) && !text.contains("Infinity") ? null : d;
      }
      case STRING:
        return text;
      case BYTES:
        try {
          return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
          return null;
        }
      case DECIMAL:
        return new BigDecimal(text);
      case DATE:
        return LocalDate.parse(text);
      case TIMESTAMP:
        return LocalDateTime.parse(text.length() > 10 && text.charAt(10) == ' '
            ? text.substring(0, 10) + 'T' + text.substring(11) : text);
      case TIMESTAMPTZ:
        return OffsetDateTime.parse(text).toInstant();
      default:
        throw new AssertionError(type);
    }
  }

  private static String expected(Type type) {
    switch (type.kind()) {
      case BOOLEAN: return "true or false";
      case INT: return "an int (32-bit integer)";
      case LONG: return "a long (64-bit integer)";
      case FLOAT: case DOUBLE: return "a finite " + type + " number (or NaN, Infinity)";
      case BYTES: return "base64";
      case DECIMAL: return "a decimal number";
      case DATE: return "an ISO date (2026-11-30)";
      case TIMESTAMP: return "an ISO timestamp without zone (2026-11-30T08:15:30.123456)";
      case TIMESTAMPTZ: return "an ISO timestamp with an offset (2026-11-30T08:15:30.123456Z)";
      default: return "a " + type;
    }
  }

  /** The text of a (non-null) value: what {@link #parse} reads back to the same value. */
  public static String text(Field field, Object value) {
    switch (field.type().kind()) {
      case BYTES: return Base64.getEncoder().encodeToString((byte[]) value);
      case DECIMAL: return ((BigDecimal) value).toPlainString();
      case TIMESTAMP: return MICROS.format((LocalDateTime) value);
      case TIMESTAMPTZ: return MICROS.format(LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC)) + "Z";
      default: return String.valueOf(value);
    }
  }

  /** The JSON of a value (see the class comment); JSON null for null. */
  public static JsonNode json(Field field, Object value) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (value == null) {
      return f.nullNode();
    }
    switch (field.type().kind()) {
      case BOOLEAN: return f.booleanNode((Boolean) value);
      case INT: return f.numberNode((Integer) value);
      case LONG: return f.numberNode((Long) value);
      case FLOAT: {
        float v = (Float) value;
        return Float.isFinite(v) ? f.numberNode(v) : f.textNode(Float.toString(v));
      }
      case DOUBLE: {
        double v = (Double) value;
        return Double.isFinite(v) ? f.numberNode(v) : f.textNode(Double.toString(v));
      }
      default: return f.textNode(text(field, value));
    }
  }
}
