package io.snapds.dataset;

import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaException;
import io.snapds.dataset.schema.SchemaUpdate;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A dataset's schemas in its metadata: the current one, and the one each snapshot was written
 * with. Schema ids count from 1; each change records a new id and makes it current, and snapshots
 * begun afterwards record it ({@link SnapshotInfo#schemaId()}). Old schemas stay, so every
 * retained snapshot can be read with its own.
 */
final class DatasetSchemas {
  private DatasetSchemas() {
  }

  /** The current schema; empty for a schema-less dataset. */
  static Optional<Schema> current(MetadataView view) {
    return view.currentSchemaId().flatMap(view::schema);
  }

  /** Every recorded schema by id, 1 up to the current one (ids are given in order, never reused). */
  static java.util.SortedMap<Integer, Schema> all(MetadataView view) {
    java.util.SortedMap<Integer, Schema> out = new java.util.TreeMap<>();
    int current = view.currentSchemaId().orElse(0);
    for (int id = 1; id <= current; id++) {
      int schemaId = id;
      view.schema(id).ifPresent(s -> out.put(schemaId, s));
    }
    return java.util.Collections.unmodifiableSortedMap(out);
  }

  /**
   * The schema a snapshot was written with; empty when it was written schema-less.
   *
   * @throws SnapshotNotAvailableException if the dataset has no record of the snapshot
   */
  static Optional<Schema> ofSnapshot(MetadataView view, DatasetId dataset, SnapshotId snapshot) {
    SnapshotInfo info = view.snapshot(snapshot).orElseThrow(() -> new SnapshotNotAvailableException(dataset,
        "no snapshot " + snapshot));
    return info.schemaId().map(id -> view.schema(id).orElseThrow(() -> new CorruptMetadataException(dataset,
        "snapshot " + snapshot, "its schema " + id + " is not recorded")));
  }

  /**
   * Gives a schema-less dataset its first schema (id 1); a no-op when {@code schema} is already
   * current.
   *
   * @return the current schema id
   * @throws SchemaException if the dataset has a different schema already (evolve it instead)
   */
  static int create(MetadataStore store, Schema schema) {
    return store.update("set schema", view -> {
      Optional<Integer> cur = view.currentSchemaId();
      if (cur.isPresent()) {
        Schema existing = view.schema(cur.get()).orElseThrow();
        if (existing.equals(schema)) {
          return cur.get();
        }
        throw new SchemaException(null, "the dataset has schema " + cur.get() + " [" + existing
            + "] already; evolve it rather than replace it with [" + schema + "]");
      }
      view.putSchema(1, schema, schema.highestFieldId());
      return 1;
    });
  }

  /**
   * Evolves the current schema by {@code change} (Iceberg-like rules, see {@link SchemaUpdate}),
   * validated again on every commit retry against the schema current then. No change records
   * nothing.
   *
   * @return the id of the schema current afterwards
   * @throws SchemaException naming the field when a change is not allowed, or the dataset has
   *     no schema
   */
  static int evolve(MetadataStore store, UnaryOperator<SchemaUpdate> change) {
    return store.update("evolve schema", view -> {
      int cur = view.currentSchemaId().orElseThrow(() -> new SchemaException(null,
          "the dataset has no schema to evolve; set one first"));
      Schema base = view.schema(cur).orElseThrow();
      SchemaUpdate update = change.apply(new SchemaUpdate(base, view.lastFieldId(cur)));
      Schema next = update.apply();
      if (next.equals(base)) {
        return cur;
      }
      view.putSchema(cur + 1, next, update.lastFieldId());
      return cur + 1;
    });
  }
}
