package io.snapds.cdap.codec;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.dataset.SnapshotRow;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A record to a snapshot row and back. The row key is made of the key fields
 * ({@link RowKeyCodec}); every field that is not null, key fields included, becomes one cell in
 * the column family, its qualifier the field name, its value encoded as {@link CdapValueCodec} says.
 * A null field writes no cell (there is nothing to delete: each run writes a new snapshot), and a
 * missing cell reads back as null. Immutable and thread-safe.
 */
public final class RecordCodec {
  private final Schema schema;
  private final byte[] family;
  private final RowKeyCodec key;

  private RecordCodec(Schema schema, String family, RowKeyCodec key) {
    this.schema = schema;
    this.family = Bytes.toBytes(family);
    this.key = key;
  }

  /**
   * A codec that writes records of {@code schema} keyed by {@code keyFields}.
   *
   * @throws IllegalArgumentException naming the field when the schema has a field of an
   *     unsupported type, or a key field is missing or of a type keys cannot have
   */
  public static RecordCodec forWriting(Schema schema, String family, List<String> keyFields) {
    checkSchema(schema);
    return new RecordCodec(schema, family, RowKeyCodec.of(schema, keyFields));
  }

  /** A codec that reads rows into records of {@code schema}. */
  public static RecordCodec forReading(Schema schema, String family) {
    checkSchema(schema);
    return new RecordCodec(schema, family, null);
  }

  private static void checkSchema(Schema schema) {
    checkNotNull(schema, "schema must not be null");
    checkArgument(schema.getType() == Schema.Type.RECORD, "schema must be a record, got %s", schema.getType());
    for (Schema.Field f : schema.getFields()) {
      Optional<String> problem = SchemaTypes.columnProblem(f.getSchema());
      checkArgument(problem.isEmpty(), "field '%s': %s", f.getName(), problem.orElse(null));
    }
  }

  public Schema schema() {
    return schema;
  }

  /** @throws IllegalArgumentException naming the field when a value does not fit its schema */
  public SnapshotRow toRow(StructuredRecord record) {
    checkArgument(key != null, "this codec only reads");
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (Schema.Field f : schema.getFields()) {
      Object value = record.get(f.getName());
      if (value == null) {
        continue;
      }
      try {
        cells.put(qualifier(f), CdapValueCodec.encode(SchemaTypes.nonNullable(f.getSchema()), value));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("field '" + f.getName() + "': " + e.getMessage(), e);
      }
    }
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(family, cells);
    return new SnapshotRow(key.encode(record), families);
  }

  /**
   * @throws IllegalArgumentException naming the field and the row when a non-nullable field has
   *     no cell, or a cell cannot be read as its field's type
   */
  public StructuredRecord fromRow(SnapshotRow row) {
    StructuredRecord.Builder builder = StructuredRecord.builder(schema);
    for (Schema.Field f : schema.getFields()) {
      byte[] cell = row.value(family, qualifier(f));
      if (cell == null) {
        checkArgument(f.getSchema().isNullable(), "field '%s' is not nullable, but row %s has no cell %s:%s",
            f.getName(), row.keyAsString(), Bytes.toString(family), f.getName());
        continue;
      }
      try {
        builder.set(f.getName(), CdapValueCodec.decode(SchemaTypes.nonNullable(f.getSchema()), cell));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("field '" + f.getName() + "' of row " + row.keyAsString() + ": "
            + e.getMessage(), e);
      }
    }
    return builder.build();
  }

  private static byte[] qualifier(Schema.Field f) {
    return f.getName().getBytes(StandardCharsets.UTF_8);
  }
}
