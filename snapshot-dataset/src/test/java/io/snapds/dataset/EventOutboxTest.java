package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent.Type;
import io.snapds.dataset.store.InMemoryMetadataStore;
import io.snapds.dataset.store.MetadataView;
import io.snapds.dataset.testing.MutableClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The transactional outbox against the in-memory store: every change of the list leaves exactly
 * one event in the transaction of the change, a change that fails leaves none, sequences have no
 * gaps, and the retained window is pruned with a typed error for a consumer behind it.
 */
class EventOutboxTest {
  private static final DatasetId DS = DatasetId.of("t", "events");
  private final MetadataFixture fixture = new MetadataFixture(DS);
  private final MutableClock clock = fixture.clock;
  private final InMemoryMetadataStore store = fixture.store;

  private SnapshotId begin(String runId, String sourceKey, long token) {
    return fixture.begin(runId, sourceKey, token);
  }

  private SnapshotId publish(String runId, long rows) {
    return publish(runId, rows, 1);
  }

  private SnapshotId publish(String runId, long rows, long token) {
    SnapshotId id = begin(runId, null, token);
    WriterOptions options = new WriterOptions("w", runId, null, NewSnapshot.lockName(null), 1024);
    store.update("publish", new Publication(DS, id, token, options, rows, 100, Map.of(),
        RetentionPolicy.retainLast(100))::apply);
    return id;
  }

  private List<DatasetEvent> events() {
    return store.read(view -> view.events(0, 10_000));
  }

  private long lastSequence() {
    return store.read(MetadataView::lastEventSequence);
  }

  @Test
  void everyChangeOfTheListWritesExactlyOneEventWithItsFields() {
    SnapshotId first = publish("run-1", 10);
    SnapshotId second = publish("run-2", 20);
    new ManageTagsImpl(fixture.ops(), first).tag("gold").commit();
    new RollbackToImpl(fixture.ops(), first).commit();
    new ExpireSnapshotsImpl(fixture.ops()).expire(second).commit();
    SnapshotId stale = begin(null, null, 1);
    begin(null, null, 2); // a newer lease of the same lock aborts the stale writer's snapshot
    store.update("clean", view -> {
      view.putSnapshot(view.snapshot(second).orElseThrow().toBuilder().cleanedAt(view.commitTime()).build());
      return null;
    });

    List<DatasetEvent> events = events();
    // the first commit (here the first publish) writes CREATED first: a dataset event without a snapshot
    assertEquals(List.of(Type.CREATED, Type.PUBLISHED, Type.PUBLISHED, Type.TAGGED, Type.ROLLED_BACK, Type.EXPIRED,
        Type.ABORTED, Type.CLEANED), events.stream().map(DatasetEvent::type).toList());
    assertEquals(Optional.empty(), events.get(0).snapshot());
    events = events.subList(1, events.size());
    assertEquals(List.of(first, second, first, first, second, stale, second),
        events.stream().map(DatasetEvent::snapshotId).toList());
    assertEquals(LongStream.rangeClosed(2, 8).boxed().toList(), events.stream().map(DatasetEvent::sequence).toList());
    DatasetEvent published = events.get(1);
    assertEquals(DatasetEvent.SCHEMA_VERSION, published.schemaVersion());
    assertEquals(DS, published.dataset());
    assertEquals(Optional.of("run-2"), published.runId());
    assertEquals(20, published.rowCount());
    SnapshotInfo stored = store.read(view -> view.snapshot(second)).orElseThrow();
    assertEquals(stored.committedAt().orElseThrow(), published.commitTime());
    assertEquals(8, lastSequence());
    // commit times follow the sequence
    for (int i = 1; i < events.size(); i++) {
      assertTrue(!events.get(i).commitTime().isBefore(events.get(i - 1).commitTime()), events.toString());
    }
  }

  @Test
  void aChangeThatFailsLeavesNoEventAndTakesNoSequence() {
    SnapshotId id = publish("run-1", 1);
    SnapshotId building = begin(null, null, 1);
    store.update("break", view -> {
      view.putFence(NewSnapshot.WRITER_LOCK, 2);
      return null;
    });
    WriterOptions options = new WriterOptions("w", null, null, NewSnapshot.lockName(null), 1024);
    assertThrows(FencedWriterException.class, () -> store.update("publish",
        new Publication(DS, building, 1, options, 1, 1, Map.of(), RetentionPolicy.retainLast(100))::apply));
    // an operation that records a change and then fails validation commits neither
    assertThrows(IllegalStateException.class, () -> store.update("tag then fail", view -> {
      view.putSnapshot(view.snapshot(id).orElseThrow().toBuilder().tags(java.util.Set.of("x")).build());
      throw new IllegalStateException("validation failed after the change");
    }));
    // a change nobody may care about (a fence) writes no event either
    assertEquals(List.of(Type.CREATED, Type.PUBLISHED), events().stream().map(DatasetEvent::type).toList());
    assertEquals(2, lastSequence());
    assertEquals(Optional.of(id), store.read(MetadataView::current));
    assertTrue(store.read(view -> view.snapshot(id)).orElseThrow().tags().isEmpty());
    SnapshotId next = publish("run-2", 1, 3);
    // the next writer's lease aborts the fenced one's snapshot, then publishes: numbers 3 and 4
    assertEquals(List.of(Type.CREATED, Type.PUBLISHED, Type.ABORTED, Type.PUBLISHED),
        events().stream().map(DatasetEvent::type).toList());
    assertEquals(List.of(1L, 2L, 3L, 4L), events().stream().map(DatasetEvent::sequence).toList());
    assertEquals(List.of(id, building, next), events().stream().skip(1).map(DatasetEvent::snapshotId).toList());
  }

  @Test
  void readsPageThroughTheOutboxInSequenceOrder() {
    for (int i = 0; i < 25; i++) {
      publish("run-" + i, i);
    }
    long after = 0;
    StringBuilder runs = new StringBuilder();
    while (true) {
      long from = after;
      List<DatasetEvent> got = store.read(view -> view.events(from, 10));
      if (got.isEmpty()) {
        break;
      }
      assertTrue(got.size() <= 10);
      assertEquals(after + 1, got.get(0).sequence());
      for (DatasetEvent e : got) {
        runs.append(e.runId().orElse(e.type().name())).append(',');
      }
      after = got.get(got.size() - 1).sequence();
    }
    assertEquals(26, after);
    assertTrue(runs.toString().startsWith("CREATED,run-0,run-1,") && runs.toString().endsWith("run-24,"),
        runs.toString());
    assertEquals(List.of(), store.read(view -> view.events(26, 10)));
    assertThrows(IllegalArgumentException.class, () -> store.read(view -> view.events(-1, 10)));
    assertThrows(IllegalArgumentException.class, () -> store.read(view -> view.events(0, 0)));
  }

  @Test
  void theWindowIsPrunedAndAConsumerBehindItMustResync() {
    for (int i = 0; i < 11; i++) { // 12 events with the CREATED of the first commit
      publish("run-" + i, i);
    }
    int deleted = store.update("trim", view -> view.trimEvents(5));
    assertEquals(7, deleted);
    assertEquals(List.of(8L, 9L, 10L, 11L, 12L), events7().stream().map(DatasetEvent::sequence).toList());
    EventsPrunedException e = assertThrows(EventsPrunedException.class, () -> store.read(view -> view.events(0, 10)));
    assertEquals(0, e.afterSequence());
    assertEquals(8, e.oldestRetained());
    assertTrue(e.getMessage().contains(DS.toString()), e.getMessage());
    assertThrows(EventsPrunedException.class, () -> store.read(view -> view.events(6, 10)));
    assertEquals(5, store.read(view -> view.events(7, 10)).size());
    assertEquals(0, (int) store.update("trim again", view -> view.trimEvents(5)));
    // the sequence continues after the pruned ones
    publish("run-11", 1);
    assertEquals(13, store.read(view -> view.events(12, 10)).get(0).sequence());
  }

  @Test
  void aDropWritesTheLastEventAndNoChangeThatWritesOneCommitsAfterIt() {
    SnapshotId id = publish("run-1", 4);
    store.update("position", view -> {
      view.putDeliveredPosition("kafka", 2);
      return null;
    });
    store.update("drop", view -> {
      view.markDropped();
      return null;
    });
    store.update("drop again", view -> { // idempotent: one DROPPED
      view.markDropped();
      return null;
    });
    List<DatasetEvent> events = events();
    assertEquals(List.of(Type.CREATED, Type.PUBLISHED, Type.DROPPED), events.stream().map(DatasetEvent::type).toList());
    DatasetEvent dropped = events.get(2);
    assertEquals(Optional.of(id), dropped.snapshot()); // a dataset event carries the current snapshot
    assertEquals(4, dropped.rowCount());
    assertEquals(3L, (long) store.read(MetadataView::droppedSequence));
    // a publish after the drop fails typed and leaves nothing
    DatasetNotFoundException gone = assertThrows(DatasetNotFoundException.class, () -> publish("run-2", 1));
    assertTrue(gone.getMessage().contains("being dropped (event 3)"), gone.getMessage());
    assertEquals(3, lastSequence());
    assertEquals(Optional.of(id), store.read(MetadataView::current));
    // a relay may still record that it delivered the DROPPED event
    store.update("position", view -> {
      view.putDeliveredPosition("kafka", 3);
      return null;
    });
    assertEquals(Map.of("kafka", 3L), store.read(MetadataView::deliveredPositions));
  }

  @Test
  void datasetEventsHaveNoSnapshotOfTheirOwnAndVersionOneEventsStillParse() {
    DatasetEvent created = new DatasetEvent(DatasetEvent.SCHEMA_VERSION, Type.CREATED, DS, 1, Optional.empty(),
        Optional.empty(), Optional.empty(), 0, Instant.parse("2026-12-02T06:00:00Z"));
    assertTrue(!created.toJson().contains("snapshot"), created.toJson());
    assertEquals(created, DatasetEvent.fromJson(created.toJson()));
    IllegalStateException none = assertThrows(IllegalStateException.class, created::snapshotId);
    assertTrue(none.getMessage().contains("CREATED"), none.getMessage());
    IllegalArgumentException noSnapshot = assertThrows(IllegalArgumentException.class, () -> new DatasetEvent(2,
        Type.PUBLISHED, DS, 2, Optional.empty(), Optional.empty(), Optional.empty(), 0, Instant.EPOCH));
    assertTrue(noSnapshot.getMessage().contains("PUBLISHED event needs a snapshot"), noSnapshot.getMessage());
    // a stored event of schema 1 (before dataset events) reads as it was
    DatasetEvent v1 = DatasetEvent.fromJson("{\"schema\":1,\"type\":\"PUBLISHED\",\"dataset\":\"t:events\","
        + "\"sequence\":7,\"snapshot\":42,\"runId\":\"r\",\"rowCount\":3,\"commitTime\":\"2026-12-01T00:00:00Z\"}");
    assertEquals(1, v1.schemaVersion());
    assertEquals(SnapshotId.of(42), v1.snapshotId());
    assertEquals(Optional.of("r"), v1.runId());
  }

  private List<DatasetEvent> events7() {
    return store.read(view -> view.events(7, 100));
  }
}
