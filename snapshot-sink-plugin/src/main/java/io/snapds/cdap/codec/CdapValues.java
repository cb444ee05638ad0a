package io.snapds.cdap.codec;

import io.cdap.cdap.api.data.schema.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * One field value between a CDAP record's internal form and the dataset schema's Java form:
 * <table>
 *   <tr><th>CDAP</th><th>record holds</th><th>dataset</th></tr>
 *   <tr><td>boolean, int, long, float, double, string</td><td>the same</td><td>the same</td></tr>
 *   <tr><td>bytes</td><td>byte[] or ByteBuffer</td><td>byte[]</td></tr>
 *   <tr><td>decimal(p,s)</td><td>unscaled two's complement bytes</td><td>BigDecimal of scale s</td></tr>
 *   <tr><td>date</td><td>int days since 1970-01-01</td><td>LocalDate</td></tr>
 *   <tr><td>timestamp-micros / -millis</td><td>long since the epoch, UTC</td><td>Instant (timestamptz)</td></tr>
 *   <tr><td>datetime</td><td>ISO-8601 local date-time text</td><td>LocalDateTime (timestamp)</td></tr>
 * </table>
 */
public final class CdapValues {
  private CdapValues() {}

  /** The dataset form of a non-null value of a field of (non-null) CDAP schema {@code s}. */
  public static Object toDataset(Schema s, Object value) {
    Schema.LogicalType logical = s.getLogicalType();
    if (logical != null) {
      switch (logical) {
        case DECIMAL:
          return new BigDecimal(new BigInteger(Values.bytes(value)), s.getScale());
        case DATE:
          return LocalDate.ofEpochDay(((Number) value).intValue());
        case TIMESTAMP_MICROS: {
          long micros = ((Number) value).longValue();
          return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
        }
        case TIMESTAMP_MILLIS:
          return Instant.ofEpochMilli(((Number) value).longValue());
        case DATETIME:
          return LocalDateTime.parse(value.toString());
        default:
          throw new IllegalArgumentException("no dataset type for CDAP " + logical.getToken());
      }
    }
    return s.getType() == Schema.Type.BYTES ? Values.bytes(value) : value;
  }

  /** The CDAP record form of a non-null dataset value for a field of CDAP schema {@code s}. */
  public static Object toCdap(Schema s, Object value) {
    Schema.LogicalType logical = s.getLogicalType();
    if (logical != null) {
      switch (logical) {
        case DECIMAL:
          return ((BigDecimal) value).setScale(s.getScale()).unscaledValue().toByteArray();
        case DATE:
          return (int) ((LocalDate) value).toEpochDay();
        case TIMESTAMP_MICROS: {
          Instant t = (Instant) value;
          return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000L);
        }
        case DATETIME:
          return ((LocalDateTime) value).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME);
        default:
          throw new IllegalArgumentException("no CDAP form for " + logical.getToken());
      }
    }
    return value instanceof byte[] b ? ByteBuffer.wrap(b.clone()) : value;
  }

}
