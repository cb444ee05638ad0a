package io.snapds.dataset.schema;

import io.snapds.dataset.SnapshotRow;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Maps a {@link SchemaRecord} to a {@link SnapshotRow} and back: the key fields form the row key
 * ({@link KeyCodec}); every other non-null field is one cell in one column family (the dataset's
 * first, by convention), its qualifier the field's name in UTF-8 and its value as
 * {@link ValueCodec} encodes it. A null field has no cell. Cells whose qualifier is not a field of
 * the schema are ignored when decoding (they belong to another schema, or to raw writers). A row
 * whose non-key fields are all null (or that has none) gets one cell with an empty qualifier and
 * an empty value, so that it exists; no field has an empty name, so decoding ignores it.
 * Immutable and thread-safe.
 */
public final class RowCodec {
  /** The qualifier and value of the one cell of a row that has no other (see the class comment). */
  static final byte[] ROW_MARKER = new byte[0];

  private final Schema schema;
  private final byte[] family;
  private final KeyCodec keys;
  private final byte[][] qualifiers;

  /**
   * @param schema the schema of the records
   * @param family the column family of the cells
   */
  public RowCodec(Schema schema, String family) {
    this.schema = schema;
    this.family = Bytes.toBytes(family);
    this.keys = new KeyCodec(schema);
    List<Field> fields = schema.fields();
    this.qualifiers = new byte[fields.size()][];
    for (int i = 0; i < fields.size(); i++) {
      qualifiers[i] = Bytes.toBytes(fields.get(i).name());
    }
  }

  public Schema schema() {
    return schema;
  }

  /** The row of a record (which must be of this codec's schema). */
  public SnapshotRow encode(SchemaRecord record) {
    if (!record.schema().equals(schema)) {
      throw new IllegalArgumentException("record of schema [" + record.schema() + "] given to a codec of ["
          + schema + "]");
    }
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    List<Field> fields = schema.fields();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      Object v = record.get(f.name());
      if (!f.isKey() && v != null) {
        cells.put(qualifiers[i], ValueCodec.encode(f, v));
      }
    }
    if (cells.isEmpty()) {
      cells.put(ROW_MARKER, ROW_MARKER); // a row without cells would not exist in HBase
    }
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(family, cells);
    return new SnapshotRow(keys.encode(record.keyValues()), families);
  }

  /**
   * The row of these values by field name.
   *
   * @throws UnknownFieldException for a name the schema does not have
   * @throws InvalidValueException for a value that does not fit, or a null key or non-null field
   */
  public SnapshotRow encode(Map<String, ?> values) {
    return encode(SchemaRecord.of(schema, values));
  }

  /**
   * The record a row holds.
   *
   * @throws InvalidValueException if the key or a cell does not decode as its field's type, or a
   *     non-null field has no cell
   */
  public SchemaRecord decode(SnapshotRow row) {
    SchemaRecord.Builder b = SchemaRecord.builder(schema);
    List<Object> keyValues = keys.decode(row.key());
    List<Field> keyFields = schema.keyFields();
    for (int i = 0; i < keyFields.size(); i++) {
      b.set(keyFields.get(i).name(), keyValues.get(i));
    }
    List<Field> fields = schema.fields();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      if (!f.isKey()) {
        byte[] v = row.value(family, qualifiers[i]);
        if (v != null) {
          b.set(f.name(), ValueCodec.decode(f, v));
        }
      }
    }
    return b.build();
  }

  /** The row key of these key values, in key order (see {@link KeyCodec#encode}). */
  public byte[] rowKey(List<?> keyValues) {
    return keys.encode(keyValues);
  }
}
