package io.snapds.dataset;

import io.snapds.dataset.store.InMemoryMetadataStore;
import io.snapds.dataset.testing.MutableClock;
import java.time.Instant;
import java.util.Map;

/** One dataset's metadata in memory with a settable clock, for the unit tests of the operations' rules. */
final class MetadataFixture {
  final DatasetId dataset;
  final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T00:00:00Z"));
  final InMemoryMetadataStore store;

  MetadataFixture(DatasetId dataset) {
    this.dataset = dataset;
    this.store = new InMemoryMetadataStore(dataset, clock);
  }

  /** The operations context over this metadata alone (no data table, locks or transaction client). */
  OperationsContext ops() {
    return OperationsContext.metadataOnly(dataset, store, clock);
  }

  /** Begins a snapshot with the begin rule; returns its id. */
  SnapshotId begin(String runId, String sourceKey, long token) {
    SnapshotId id = SnapshotId.of(store.nextId());
    store.update("begin", view -> NewSnapshot.begin(view, dataset,
        SnapshotInfo.builder(id).state(SnapshotState.BUILDING).createdAt(clock.instant()).writer("w")
            .runId(runId).sourceKey(sourceKey).fencingToken(token).build(),
        NewSnapshot.lockName(sourceKey), token));
    return id;
  }

  /** Begins and publishes a snapshot for {@code runId} under the writer lock (retaining 100); returns its id. */
  SnapshotId publish(String runId) {
    SnapshotId id = begin(runId, null, 1);
    WriterOptions options = new WriterOptions("w", runId, null, NewSnapshot.lockName(null), 1024);
    store.update("publish", new Publication(dataset, id, 1, options, 1, 1, Map.of(),
        RetentionPolicy.retainLast(100))::apply);
    return id;
  }
}
