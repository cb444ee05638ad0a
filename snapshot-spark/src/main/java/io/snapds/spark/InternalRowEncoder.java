package io.snapds.spark;

import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.RowEncoder;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.Type;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.Decimal;

/**
 * Spark's rows to the dataset's row keys and cells, column by column in the schema's order, through
 * the core's {@link RowEncoder}: Spark's internal values are already the primitive forms the
 * encoding stores (days, microseconds, UTF-8, unscaled decimals), so a row costs no record, map or
 * conversion through Java's types (docs/benchmarks.md, the Spark write). One per task.
 */
final class InternalRowEncoder {
  private final RowEncoder encoder;
  /** Per column of the written rows: its field's index in the schema, and the field. */
  private final int[] fieldIndexes;
  private final Field[] fields;

  InternalRowEncoder(Schema schema, String[] columns) {
    this.encoder = new RowEncoder(schema);
    this.fieldIndexes = new int[columns.length];
    this.fields = new Field[columns.length];
    for (int i = 0; i < columns.length; i++) {
      fields[i] = schema.field(columns[i]);
      fieldIndexes[i] = schema.fields().indexOf(fields[i]);
    }
  }

  /**
   * The row key and cells of {@code row}.
   *
   * @throws io.snapds.dataset.schema.InvalidValueException naming the field whose value does not
   *     fit (a string whose bytes are not UTF-8, as Spark's {@code CAST(binary AS STRING)} can make)
   */
  RowEncoder.EncodedRow encode(InternalRow row) {
    try {
      return encodeFields(row);
    } catch (RuntimeException e) {
      encoder.reset(); // nothing of a refused row reaches the next one
      throw e;
    }
  }

  private RowEncoder.EncodedRow encodeFields(InternalRow row) {
    for (int i = 0; i < fields.length; i++) {
      int f = fieldIndexes[i];
      if (row.isNullAt(i)) {
        encoder.setNull(f);
        continue;
      }
      Type type = fields[i].type();
      switch (type.kind()) {
        case BOOLEAN -> encoder.setBoolean(f, row.getBoolean(i));
        case INT, DATE -> encoder.setInt(f, row.getInt(i));
        case LONG, TIMESTAMP, TIMESTAMPTZ -> encoder.setLong(f, row.getLong(i));
        case FLOAT -> encoder.setFloat(f, row.getFloat(i));
        case DOUBLE -> encoder.setDouble(f, row.getDouble(i));
        case STRING -> encoder.setUtf8(f, row.getUTF8String(i).getBytes());
        case BYTES -> encoder.setBytes(f, row.getBinary(i));
        case DECIMAL -> {
          Decimal d = row.getDecimal(i, type.precision(), type.scale());
          // a Decimal's precision is at least its digits: at most 18 fit its unscaled long exactly
          if (d.scale() == type.scale() && d.precision() <= Decimal.MAX_LONG_DIGITS()) {
            encoder.setUnscaledDecimal(f, d.toUnscaledLong());
          } else {
            encoder.setDecimal(f, d.toJavaBigDecimal());
          }
        }
        default -> throw new IllegalArgumentException("no Spark value for " + fields[i]);
      }
    }
    return encoder.finish();
  }
}
