package io.snapds.dataset.schema;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Encodes rows whose values arrive field by field as primitives, for an engine with typed rows of
 * its own (Spark's {@code InternalRow}): the same row key ({@link KeyCodec}) and cells
 * ({@link ValueCodec}) as {@link RowCodec#encode}, without boxing, records or sorted maps per row.
 * Set each field of a row by its index in {@link Schema#fields()}, then {@link #finish()}; a field
 * not set is null. Each setter takes the primitive form of its type (days for a date, microseconds
 * for a timestamp, UTF-8 for a string, the unscaled value for a decimal) and checks what that form
 * leaves open: a string's bytes are UTF-8, a decimal has at most its precision's digits.
 *
 * <p>Holds one row at a time: one encoder per thread (a task). A setter that refuses a value
 * leaves the fields set before it: {@link #reset()} before the next row. The arrays
 * {@link #finish()} returns are new for each row; the byte arrays given to {@link #setUtf8} and
 * {@link #setBytes} are held, not copied, until the row is sent.
 */
public final class RowEncoder {
  private final Field[] fields;
  private final byte[][] qualifiers;
  /** Key fields' indexes in key order. */
  private final int[] keyFields;
  /** Non-key fields' indexes in their qualifiers' byte order (the order of a row's cells). */
  private final int[] cellFields;
  /** The current row: per field its key part (a key field) or cell value, null while unset or null. */
  private final byte[][] current;
  private final ByteArrayOutputStream key = new ByteArrayOutputStream();

  public RowEncoder(Schema schema) {
    List<Field> all = schema.fields();
    this.fields = all.toArray(new Field[0]);
    this.qualifiers = new byte[fields.length][];
    for (int i = 0; i < fields.length; i++) {
      qualifiers[i] = Bytes.toBytes(fields[i].name());
    }
    this.keyFields = schema.keyFields().stream().mapToInt(all::indexOf).toArray();
    Integer[] cells = new Integer[fields.length - keyFields.length];
    int n = 0;
    for (int i = 0; i < fields.length; i++) {
      if (!fields[i].isKey()) {
        cells[n++] = i;
      }
    }
    Arrays.sort(cells, (a, b) -> Bytes.compareTo(qualifiers[a], qualifiers[b]));
    this.cellFields = Arrays.stream(cells).mapToInt(Integer::intValue).toArray();
    this.current = new byte[fields.length][];
  }

  /** The row of the values set so far: its key, and its cells in one family. */
  public record EncodedRow(byte[] key, byte[][] qualifiers, byte[][] values) {}

  /** Forgets the fields set since the last {@link #finish()}: after a setter refused a value, before the next row. */
  public void reset() {
    Arrays.fill(current, null);
  }

  /** A field that is null (the default for one not set). */
  public void setNull(int field) {
    current[field] = null;
  }

  public void setBoolean(int field, boolean v) {
    expect(field, Type.Kind.BOOLEAN, null);
    current[field] = new byte[] {(byte) (v ? 1 : 0)};
  }

  /** An int field, or a date field's days since 1970-01-01. */
  public void setInt(int field, int v) {
    expect(field, Type.Kind.INT, Type.Kind.DATE);
    current[field] = Bytes.toBytes(fields[field].isKey() ? KeyCodec.orderedInt(v) : v);
  }

  /** A long field, or a timestamp field's microseconds since 1970-01-01T00:00. */
  public void setLong(int field, long v) {
    expect(field, Type.Kind.LONG, Type.Kind.TIMESTAMP, Type.Kind.TIMESTAMPTZ);
    current[field] = Bytes.toBytes(fields[field].isKey() ? KeyCodec.orderedLong(v) : v);
  }

  public void setFloat(int field, float v) {
    expect(field, Type.Kind.FLOAT, null);
    current[field] = fields[field].isKey() ? Bytes.toBytes(KeyCodec.orderedFloat(v)) : ValueCodec.encodeFloat(v);
  }

  public void setDouble(int field, double v) {
    expect(field, Type.Kind.DOUBLE, null);
    current[field] = fields[field].isKey() ? Bytes.toBytes(KeyCodec.orderedDouble(v)) : ValueCodec.encodeDouble(v);
  }

  /**
   * A string field's UTF-8 bytes (kept, not copied).
   *
   * @throws InvalidValueException if they are not UTF-8
   */
  public void setUtf8(int field, byte[] utf8) {
    expect(field, Type.Kind.STRING, null);
    ValueCodec.checkUtf8(fields[field], utf8);
    current[field] = fields[field].isKey() ? escaped(utf8) : utf8;
  }

  /** A bytes field's value (kept, not copied). */
  public void setBytes(int field, byte[] v) {
    expect(field, Type.Kind.BYTES, null);
    current[field] = fields[field].isKey() ? escaped(v) : v;
  }

  /**
   * A decimal field's unscaled value at the field's scale.
   *
   * @throws InvalidValueException if it has more digits than the field's precision
   */
  public void setUnscaledDecimal(int field, long unscaled) {
    expect(field, Type.Kind.DECIMAL, null);
    current[field] = ValueCodec.encodeUnscaled(fields[field], unscaled);
  }

  /**
   * A decimal field's value.
   *
   * @throws InvalidValueException as {@link ValueCodec#encode}: more digits than the field holds
   */
  public void setDecimal(int field, BigDecimal v) {
    expect(field, Type.Kind.DECIMAL, null);
    current[field] = ValueCodec.encode(fields[field], v);
  }

  /**
   * The row of the fields set since the last call, which starts the next row.
   *
   * @throws InvalidValueException naming a key or non-null field left null; the row is dropped
   */
  public EncodedRow finish() {
    try {
      key.reset();
      for (int f : keyFields) {
        key.writeBytes(required(f));
      }
      int n = 0;
      for (int f : cellFields) {
        if (current[f] != null) {
          n++;
        } else {
          required(f);
        }
      }
      byte[][] q;
      byte[][] v;
      if (n == 0) {
        q = new byte[][] {RowCodec.ROW_MARKER};
        v = new byte[][] {RowCodec.ROW_MARKER};
      } else {
        q = new byte[n][];
        v = new byte[n][];
        int c = 0;
        for (int f : cellFields) {
          if (current[f] != null) {
            q[c] = qualifiers[f];
            v[c++] = current[f];
          }
        }
      }
      return new EncodedRow(key.toByteArray(), q, v);
    } finally {
      reset();
    }
  }

  private byte[] required(int f) {
    byte[] v = current[f];
    if (v == null && !fields[f].isNullable()) {
      throw new InvalidValueException(fields[f].name(), null, (fields[f].isKey() ? "key field '" : "non-null field '")
          + fields[f].name() + "' (" + fields[f].type() + ") is null");
    }
    return v;
  }

  private void expect(int field, Type.Kind kind, Type.Kind orKind) {
    expect(field, kind, orKind, null);
  }

  private void expect(int field, Type.Kind kind, Type.Kind orKind, Type.Kind orThird) {
    Type.Kind k = fields[field].type().kind();
    if (k != kind && k != orKind && k != orThird) {
      throw new IllegalArgumentException("field '" + fields[field].name() + "' has type " + fields[field].type()
          + ", which a " + kind.toString().toLowerCase() + " setter cannot set");
    }
  }

  private static byte[] escaped(byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + 2);
    KeyCodec.writeEscaped(out, b);
    return out.toByteArray();
  }
}
