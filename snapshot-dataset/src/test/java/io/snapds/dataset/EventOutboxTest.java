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
    new ManageTagsImpl(DS, store, first).tag("gold").commit();
    new RollbackToImpl(DS, store, first).commit();
    new ExpireSnapshotsImpl(DS, store, e -> { }).expire(second).commit();
    SnapshotId stale = begin(null, null, 1);
    begin(null, null, 2); // a newer lease of the same lock aborts the stale writer's snapshot
    store.update("clean", view -> {
      view.putSnapshot(view.snapshot(second).orElseThrow().toBuilder().cleanedAt(view.commitTime()).build());
      return null;
    });

    List<DatasetEvent> events = events();
    assertEquals(List.of(Type.PUBLISHED, Type.PUBLISHED, Type.TAGGED, Type.ROLLED_BACK, Type.EXPIRED,
        Type.ABORTED, Type.CLEANED), events.stream().map(DatasetEvent::type).toList());
    assertEquals(List.of(first, second, first, first, second, stale, second),
        events.stream().map(DatasetEvent::snapshotId).toList());
    assertEquals(LongStream.rangeClosed(1, 7).boxed().toList(), events.stream().map(DatasetEvent::sequence).toList());
    DatasetEvent published = events.get(1);
    assertEquals(DatasetEvent.SCHEMA_VERSION, published.schemaVersion());
    assertEquals(DS, published.dataset());
    assertEquals(Optional.of("run-2"), published.runId());
    assertEquals(20, published.rowCount());
    SnapshotInfo stored = store.read(view -> view.snapshot(second)).orElseThrow();
    assertEquals(stored.committedAt().orElseThrow(), published.commitTime());
    assertEquals(7, lastSequence());
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
    assertEquals(List.of(Type.PUBLISHED), events().stream().map(DatasetEvent::type).toList());
    assertEquals(1, lastSequence());
    assertEquals(Optional.of(id), store.read(MetadataView::current));
    assertTrue(store.read(view -> view.snapshot(id)).orElseThrow().tags().isEmpty());
    SnapshotId next = publish("run-2", 1, 3);
    // the next writer's lease aborts the fenced one's snapshot, then publishes: numbers 2 and 3
    assertEquals(List.of(Type.PUBLISHED, Type.ABORTED, Type.PUBLISHED), events().stream().map(DatasetEvent::type).toList());
    assertEquals(List.of(1L, 2L, 3L), events().stream().map(DatasetEvent::sequence).toList());
    assertEquals(List.of(id, building, next), events().stream().map(DatasetEvent::snapshotId).toList());
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
        runs.append(e.runId().orElseThrow()).append(',');
      }
      after = got.get(got.size() - 1).sequence();
    }
    assertEquals(25, after);
    assertTrue(runs.toString().startsWith("run-0,run-1,run-2,") && runs.toString().endsWith("run-24,"), runs.toString());
    assertEquals(List.of(), store.read(view -> view.events(25, 10)));
    assertThrows(IllegalArgumentException.class, () -> store.read(view -> view.events(-1, 10)));
    assertThrows(IllegalArgumentException.class, () -> store.read(view -> view.events(0, 0)));
  }

  @Test
  void theWindowIsPrunedAndAConsumerBehindItMustResync() {
    for (int i = 0; i < 12; i++) {
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
    publish("run-12", 1);
    assertEquals(13, store.read(view -> view.events(12, 10)).get(0).sequence());
  }

  private List<DatasetEvent> events7() {
    return store.read(view -> view.events(7, 100));
  }
}
