package io.snapds.dataset.schema;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.SnapshotRow;
import java.math.BigDecimal;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads rows field by field as primitives, for an engine with typed rows of its own (Spark's
 * {@code InternalRow}): the values {@link RowCodec#decode} gives, with the same checks on stored
 * bytes, without a record or a Java object per value. {@link #read} a row, then get each field by
 * its index in {@link Schema#fields()} with the getter of its type's primitive form (days for a
 * date, microseconds for a timestamp, UTF-8 for a string), after {@link #isNull}.
 *
 * <p>It checks what it reads, as a projection does: the whole key (every key field, and nothing
 * after the last) whenever a key field is read, and the cells of the fields read. A cell no
 * requested field names is not looked at, so a missing cell of a non-null field or a corrupt cell
 * shows only to a reader of that field ({@link RowCodec#decode} reads every field).
 *
 * <p>Holds one row at a time: one decoder per thread (a task).
 */
public final class RowDecoder {
  private final Field[] fields;
  private final byte[] family;
  private final byte[][] qualifiers;
  /** Key fields' indexes in key order: all of them when a reader asks for one, else none. */
  private final int[] keyFields;
  /** Non-key fields a reader asks for. */
  private final int[] cellFields;
  /** The current row: a key field's primitive (as a long), or its bytes; a cell's bytes. */
  private final long[] primitives;
  private final byte[][] bytes;
  private final KeyCodec keys;
  /** Puts each key field {@link KeyCodec#parse} finds into the current row. */
  private final KeyCodec.Parts keyParts = new KeyCodec.Parts() {
    @Override
    public void fixed(int keyIndex, Field field, long value) {
      primitives[keyFields[keyIndex]] = value;
    }

    @Override
    public void variable(int keyIndex, Field field, byte[] value) {
      bytes[keyFields[keyIndex]] = value;
    }
  };

  /**
   * @param family the column family of the cells
   * @param read the indexes (in {@link Schema#fields()}) of the fields the reader gets; only these
   *     are decoded
   */
  public RowDecoder(Schema schema, String family, int[] read) {
    List<Field> all = schema.fields();
    this.fields = all.toArray(new Field[0]);
    this.family = Bytes.toBytes(family);
    this.qualifiers = new byte[fields.length][];
    for (int i = 0; i < fields.length; i++) {
      qualifiers[i] = Bytes.toBytes(fields[i].name());
    }
    this.keys = new KeyCodec(schema);
    boolean readsKey = false;
    int cells = 0;
    for (int f : read) {
      if (fields[f].isKey()) {
        readsKey = true;
      } else {
        cells++;
      }
    }
    this.keyFields = readsKey ? schema.keyFields().stream().mapToInt(all::indexOf).toArray() : new int[0];
    this.cellFields = new int[cells];
    int n = 0;
    for (int f : read) {
      if (!fields[f].isKey()) {
        cellFields[n++] = f;
      }
    }
    this.primitives = new long[fields.length];
    this.bytes = new byte[fields.length][];
  }

  /**
   * Reads a row: the getters return its values until the next call.
   *
   * @param key the row's key, or null when {@link #needsKey()} is false
   * @param row the row's cells, or null when only key fields are read
   * @throws InvalidValueException if the key does not decode, naming the field where it failed
   */
  public void read(byte[] key, SnapshotRow row) {
    if (keyFields.length > 0) {
      checkArgument(key != null, "this decoder reads key fields: the row's key must not be null");
      keys.parse(key, keyParts);
    }
    checkArgument(row != null || cellFields.length == 0, "this decoder reads cells: the row must not be null");
    for (int f : cellFields) {
      bytes[f] = row.value(family, qualifiers[f]);
    }
  }

  /** Whether this decoder reads a key field, so that {@link #read} needs the row's key. */
  public boolean needsKey() {
    return keyFields.length > 0;
  }

  /**
   * Whether the field is null in the current row (a key field never is).
   *
   * @throws InvalidValueException if a non-null field has no cell
   */
  public boolean isNull(int field) {
    if (fields[field].isKey() || bytes[field] != null) {
      return false;
    }
    if (!fields[field].isNullable()) {
      throw new InvalidValueException(fields[field].name(), null, "non-null field '" + fields[field].name()
          + "' (" + fields[field].type() + ") has no cell");
    }
    return true;
  }

  public boolean getBoolean(int field) {
    return fields[field].isKey() ? primitives[field] == 1 : ValueCodec.decodeBoolean(fields[field], bytes[field]);
  }

  /** An int field, or a date field's days since 1970-01-01. */
  public int getInt(int field) {
    return fields[field].isKey() ? (int) primitives[field] : ValueCodec.decodeInt(fields[field], bytes[field]);
  }

  /** A long field, or a timestamp field's microseconds since 1970-01-01T00:00. */
  public long getLong(int field) {
    return fields[field].isKey() ? primitives[field] : ValueCodec.decodeLong(fields[field], bytes[field]);
  }

  public float getFloat(int field) {
    return Float.intBitsToFloat(fields[field].isKey() ? (int) primitives[field]
        : ValueCodec.decodeInt(fields[field], bytes[field]));
  }

  public double getDouble(int field) {
    return Double.longBitsToDouble(fields[field].isKey() ? primitives[field]
        : ValueCodec.decodeLong(fields[field], bytes[field]));
  }

  /**
   * A string field's UTF-8 bytes (the stored ones: not to be changed).
   *
   * @throws InvalidValueException if they are not UTF-8
   */
  public byte[] getUtf8(int field) {
    byte[] b = bytes[field];
    if (!fields[field].isKey()) {
      ValueCodec.checkStoredUtf8(fields[field], b);
    }
    return b;
  }

  /** A bytes field's value (the stored bytes: not to be changed). */
  public byte[] getBytes(int field) {
    return bytes[field];
  }

  /**
   * A decimal field's value.
   *
   * @throws InvalidValueException if the stored bytes are no decimal of the field's type
   */
  public BigDecimal getDecimal(int field) {
    return (BigDecimal) ValueCodec.decode(fields[field], bytes[field]);
  }
}
