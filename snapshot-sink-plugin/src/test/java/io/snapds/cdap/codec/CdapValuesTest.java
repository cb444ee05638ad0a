package io.snapds.cdap.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.dataset.testing.GoldenRecords;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The golden records through a CDAP record and back: every value, the extremes included, comes
 * back equal, and the CDAP record holds what CDAP's own setters ({@code setDecimal},
 * {@code setDate}, {@code setTimestamp}, {@code setDateTime}) would have put there.
 */
class CdapValuesTest {
  static final Schema GOLDEN = Schema.recordOf("golden",
      Schema.Field.of("id", Schema.of(Schema.Type.LONG)),
      Schema.Field.of("flag", Schema.nullableOf(Schema.of(Schema.Type.BOOLEAN))),
      Schema.Field.of("i", Schema.nullableOf(Schema.of(Schema.Type.INT))),
      Schema.Field.of("l", Schema.nullableOf(Schema.of(Schema.Type.LONG))),
      Schema.Field.of("f", Schema.nullableOf(Schema.of(Schema.Type.FLOAT))),
      Schema.Field.of("d", Schema.nullableOf(Schema.of(Schema.Type.DOUBLE))),
      Schema.Field.of("s", Schema.nullableOf(Schema.of(Schema.Type.STRING))),
      Schema.Field.of("b", Schema.nullableOf(Schema.of(Schema.Type.BYTES))),
      Schema.Field.of("amount", Schema.nullableOf(Schema.decimalOf(GoldenRecords.PRECISION, GoldenRecords.SCALE))),
      Schema.Field.of("day", Schema.nullableOf(Schema.of(Schema.LogicalType.DATE))),
      Schema.Field.of("at", Schema.nullableOf(Schema.of(Schema.LogicalType.DATETIME))),
      Schema.Field.of("at_tz", Schema.nullableOf(Schema.of(Schema.LogicalType.TIMESTAMP_MICROS))));

  private static Schema nonNull(Schema s) {
    return s.isNullable() ? s.getNonNullable() : s;
  }

  /** A golden record as CDAP's typed setters build it: the reference the conversion must meet. */
  static StructuredRecord withCdapSetters(Map<String, Object> golden) {
    StructuredRecord.Builder b = StructuredRecord.builder(GOLDEN);
    golden.forEach((name, v) -> {
      if (v == null) {
        return;
      }
      if (v instanceof BigDecimal d) {
        b.setDecimal(name, d);
      } else if (v instanceof LocalDate d) {
        b.setDate(name, d);
      } else if (v instanceof LocalDateTime t) {
        b.setDateTime(name, t);
      } else if (v instanceof Instant t) {
        b.setTimestamp(name, ZonedDateTime.ofInstant(t, ZoneOffset.UTC));
      } else {
        b.set(name, v);
      }
    });
    return b.build();
  }

  private static Object normalized(Object v) {
    return v instanceof byte[] b ? ByteBuffer.wrap(b) : v instanceof ByteBuffer b ? b.duplicate() : v;
  }

  @Test
  void goldenRecordsRoundTripThroughCdapRecordsAsCdapsOwnSettersWriteThem() {
    for (Map<String, Object> golden : GoldenRecords.records()) {
      StructuredRecord reference = withCdapSetters(golden);
      StructuredRecord.Builder converted = StructuredRecord.builder(GOLDEN);
      Map<String, Object> back = new LinkedHashMap<>();
      List<String> where = new ArrayList<>();
      for (Schema.Field f : GOLDEN.getFields()) {
        Object v = golden.get(f.getName());
        if (v != null) {
          Object cdap = CdapValues.toCdap(nonNull(f.getSchema()), v);
          converted.set(f.getName(), cdap);
          assertEquals(normalized(reference.get(f.getName())), normalized(cdap), f.getName() + " of " + golden);
          back.put(f.getName(), CdapValues.toDataset(nonNull(f.getSchema()), cdap));
        } else {
          back.put(f.getName(), null);
        }
        where.add(f.getName());
      }
      converted.build();
      assertEquals(GoldenRecords.names(), where);
      for (String name : GoldenRecords.names()) {
        assertEquals(normalized(golden.get(name)), normalized(back.get(name)), name + " of record " + golden.get("id"));
      }
    }
  }

  @Test
  void timestampMillisReadsAsTheSameInstant() {
    Schema millis = Schema.of(Schema.LogicalType.TIMESTAMP_MILLIS);
    assertEquals(Instant.parse("1969-12-31T23:59:59.999Z"), CdapValues.toDataset(millis, -1L));
  }
}
