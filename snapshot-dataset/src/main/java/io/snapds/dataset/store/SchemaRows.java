package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.SCHEMA;
import static io.snapds.dataset.store.MetadataLayout.key;

import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaException;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Dataset schemas: rows {@code m} + schemaId(4), columns {@code schema} (the text form with field
 * ids) and {@code lastfid} (the highest field id given up to that schema); the pointer row's
 * {@code schema} is the current one.
 */
final class SchemaRows {
  private static final byte[] TEXT = Bytes.toBytes("schema");
  private static final byte[] LAST_FIELD_ID = Bytes.toBytes("lastfid");

  private final ViewRows rows;
  private final PointerRow pointer;
  private final Map<Integer, Optional<Schema>> schemas = new HashMap<>();
  private final Map<Integer, Integer> lastFieldIds = new HashMap<>();

  SchemaRows(ViewRows rows, PointerRow pointer) {
    this.rows = rows;
    this.pointer = pointer;
  }

  Optional<Integer> currentSchemaId() {
    return Optional.ofNullable(pointer.values().schema);
  }

  Optional<Schema> schema(int schemaId) {
    return schemas.computeIfAbsent(schemaId, this::readSchema);
  }

  private Optional<Schema> readSchema(int schemaId) {
    byte[] row = key(SCHEMA, schemaId);
    NavigableMap<byte[], byte[]> cols = rows.get(row);
    if (cols.isEmpty()) {
      return Optional.empty();
    }
    MetadataCodec.Columns c = rows.columns(row, cols);
    try {
      return Optional.of(Schema.parse(c.string(TEXT)));
    } catch (SchemaException e) {
      throw c.corrupt("schema " + schemaId + " does not parse: " + e.getMessage());
    }
  }

  int lastFieldId(int schemaId) {
    return lastFieldIds.computeIfAbsent(schemaId, this::readLastFieldId);
  }

  private int readLastFieldId(int schemaId) {
    byte[] row = key(SCHEMA, schemaId);
    Integer last = rows.columns(row, rows.get(row)).optionalInt(LAST_FIELD_ID);
    return last == null ? 0 : last;
  }

  void putSchema(int schemaId, Schema schema, int lastFieldId) {
    byte[] row = key(SCHEMA, schemaId);
    rows.write(row, TEXT, Bytes.toBytes(schema.toStringWithIds()));
    rows.write(row, LAST_FIELD_ID, Bytes.toBytes(lastFieldId));
    pointer.values().schema = schemaId;
    schemas.put(schemaId, Optional.of(schema));
    lastFieldIds.put(schemaId, lastFieldId);
  }
}
