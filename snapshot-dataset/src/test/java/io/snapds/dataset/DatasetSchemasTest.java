package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaException;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.schema.Type;
import io.snapds.dataset.store.InMemoryMetadataStore;
import io.snapds.dataset.testing.MutableClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Schemas recorded in the metadata, per snapshot, with the evolution rules, on the in-memory store. */
class DatasetSchemasTest {
  private static final DatasetId DS = DatasetId.of("t", "schemas");
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
  private final InMemoryMetadataStore store = new InMemoryMetadataStore(DS, clock);

  private SnapshotId begin() {
    SnapshotId id = SnapshotId.of(store.nextId());
    store.update("begin", view -> NewSnapshot.begin(view, DS,
        SnapshotInfo.builder(id).state(SnapshotState.BUILDING).createdAt(clock.instant()).writer("w").build(),
        NewSnapshot.lockName(null), 1));
    return id;
  }

  private Optional<Schema> schemaOf(SnapshotId id) {
    return store.read(view -> DatasetSchemas.ofSnapshot(view, DS, id));
  }

  @Test
  void eachSnapshotKeepsTheSchemaItWasWrittenWith() {
    SnapshotId schemaLess = begin();
    Schema v1 = Schema.parse("id int key, n int, name string");
    assertEquals(1, DatasetSchemas.create(store, v1));
    SnapshotId s1 = begin();
    assertEquals(2, DatasetSchemas.evolve(store, u -> u.addField("day", Type.DATE)));
    SnapshotId s2 = begin();
    assertEquals(3, DatasetSchemas.evolve(store, u -> u.renameField("name", "label").widenField("n", Type.LONG)));
    SnapshotId s3 = begin();

    assertEquals(Optional.empty(), store.read(view -> view.snapshot(schemaLess)).orElseThrow().schemaId());
    assertEquals(Optional.empty(), schemaOf(schemaLess));
    assertEquals(Optional.of(v1), schemaOf(s1));
    assertEquals("id int key, n int, name string, day date", schemaOf(s2).orElseThrow().toString());
    Schema v3 = schemaOf(s3).orElseThrow();
    assertEquals("1:id int key, 2:n long, 3:label string, 4:day date", v3.toStringWithIds());
    assertEquals(Optional.of(v3), store.read(DatasetSchemas::current));
    assertEquals(List.of(1, 2, 3), List.copyOf(store.read(DatasetSchemas::all).keySet()));
    assertEquals(v1, store.read(DatasetSchemas::all).get(1));
    assertEquals(v3, store.read(DatasetSchemas::all).get(3), "the last one is the current one");
    assertTrue(new InMemoryMetadataStore(DS, clock).read(DatasetSchemas::all).isEmpty());

    // a row of snapshot 1, decoded with snapshot 1's schema, read as the current schema
    RowCodec old = new RowCodec(schemaOf(s1).orElseThrow(), "d");
    SnapshotRow row = old.encode(Map.of("id", 7, "n", -3, "name", "x"));
    SchemaRecord now = old.decode(row).project(v3);
    assertEquals(-3L, now.getLong("n"));
    assertEquals("x", now.getString("label"));
    assertTrue(now.isNull("day"));
  }

  @Test
  void refusedChangesRecordNothingAndDroppedIdsStayRetired() {
    DatasetSchemas.create(store, Schema.parse("id int key, n int, gone string"));
    SchemaException e = assertThrows(SchemaException.class,
        () -> DatasetSchemas.evolve(store, u -> u.addField("ok", Type.INT).widenField("n", Type.STRING)));
    assertEquals("n", e.field());
    assertEquals(Optional.of(1), store.read(v -> v.currentSchemaId()));
    assertEquals(1, DatasetSchemas.evolve(store, u -> u), "no change, no new schema");

    assertEquals(2, DatasetSchemas.evolve(store, u -> u.dropField("gone")));
    assertEquals(3, DatasetSchemas.evolve(store, u -> u.addField("gone", Type.STRING)));
    assertEquals(4, store.read(DatasetSchemas::current).orElseThrow().field("gone").id(),
        "the dropped field's id 3 is not given again, even in a later update");

    assertEquals(3, DatasetSchemas.create(store, store.read(DatasetSchemas::current).orElseThrow()));
    SchemaException replace = assertThrows(SchemaException.class,
        () -> DatasetSchemas.create(store, Schema.parse("k long key")));
    assertTrue(replace.getMessage().contains("evolve it rather than replace it"), replace.getMessage());
    SchemaException none = assertThrows(SchemaException.class,
        () -> DatasetSchemas.evolve(new InMemoryMetadataStore(DS, clock), u -> u.addField("x", Type.INT)));
    assertTrue(none.getMessage().contains("no schema to evolve"), none.getMessage());
  }
}
