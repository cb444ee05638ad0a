package io.snapds.dataset.store;

import io.snapds.dataset.schema.Schema;
import java.util.Optional;

/** The dataset's schemas (rows {@code m}) and which is current. */
public interface SchemasView {
  /** The id of the dataset's current schema; empty for a schema-less dataset. */
  Optional<Integer> currentSchemaId();

  /**
   * A schema the dataset recorded, by id; empty if none has that id.
   *
   * @throws io.snapds.dataset.CorruptMetadataException if its row does not parse
   */
  Optional<Schema> schema(int schemaId);

  /** The highest field id given up to schema {@code schemaId} (0 when there is no such schema). */
  int lastFieldId(int schemaId);

  /**
   * Records {@code schema} under {@code schemaId} with the highest field id given so far, and
   * makes it the current schema. Snapshots begun afterwards record that id.
   */
  void putSchema(int schemaId, Schema schema, int lastFieldId);
}
