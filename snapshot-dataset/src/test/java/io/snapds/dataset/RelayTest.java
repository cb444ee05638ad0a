package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.store.InMemoryMetadataStore;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.apache.tephra.TransactionAware;
import org.junit.jupiter.api.Test;

/**
 * The relay against the in-memory store: the delivered position is written only after the sink
 * acknowledged, a sink failing part-way or a relay killed before it recorded its position gets the
 * events again from the last position, and over a whole run with random failures the destination
 * holds every sequence at least once with first occurrences in order.
 */
class RelayTest {
  private static final DatasetId DS = DatasetId.of("t", "relay");
  private final MetadataFixture fixture = new MetadataFixture(DS);
  private final KillableStore store = new KillableStore(fixture.store);
  private final OperationsContext ops = OperationsContext.metadataOnly(DS, store, fixture.clock);
  private int runs;

  /** Adds {@code n} events: the dataset's first commit writes CREATED (sequence 1), then one publish each. */
  private void addEvents(int n) {
    for (int i = 0; i < n; i++) {
      if (fixture.store.read(MetadataView::neverCommitted)) {
        fixture.store.update("create", view -> {
          view.announceCreated();
          return null;
        });
        continue;
      }
      String runId = "run-" + runs++;
      SnapshotId id = fixture.begin(runId, null, 1);
      WriterOptions options = new WriterOptions("w", runId, null, NewSnapshot.lockName(null), 1024);
      fixture.store.update("publish", new Publication(DS, id, 1, options, i, 1, Map.of(),
          RetentionPolicy.retainLast(1000))::apply);
    }
  }

  private Relay relay(EventSink sink, int batch) {
    return new Relay(ops, "test", sink, batch);
  }

  private long position() {
    return store.read(view -> view.deliveredPosition("test"));
  }

  /** A destination that keeps every event it was handed, in arrival order. */
  private static final class Destination implements EventSink {
    final List<Long> received = new ArrayList<>();
    /** Fails when handed the event with this sequence, once (0: never). */
    long failAt;

    @Override
    public void deliver(List<DatasetEvent> batch) {
      for (DatasetEvent e : batch) {
        if (e.sequence() == failAt) {
          failAt = 0;
          throw new IllegalStateException("broker went away at sequence " + e.sequence());
        }
        received.add(e.sequence());
      }
    }

    /** Every sequence 1..n at least once, the first occurrences in order. */
    void assertAtLeastOnceInOrder(long n) {
      assertEquals(LongStream.rangeClosed(1, n).boxed().toList(), List.copyOf(new LinkedHashSet<>(received)),
          "first occurrences of " + received);
    }
  }

  @Test
  void thePositionIsRecordedOnlyAfterTheSinkAcknowledgedEachBatch() {
    addEvents(25);
    List<Long> positionsSeenWhileDelivering = new ArrayList<>();
    List<Long> lastOfBatch = new ArrayList<>();
    EventSink sink = batch -> {
      positionsSeenWhileDelivering.add(position());
      lastOfBatch.add(batch.get(batch.size() - 1).sequence());
      assertEquals(positionsSeenWhileDelivering.get(positionsSeenWhileDelivering.size() - 1) + 1,
          batch.get(0).sequence(), "a batch starts right after the recorded position");
    };
    Relay.RelayResult r = relay(sink, 10).run();
    assertEquals(List.of(0L, 10L, 20L), positionsSeenWhileDelivering);
    assertEquals(List.of(10L, 20L, 25L), lastOfBatch);
    assertEquals(new Relay.RelayResult("test", DS, 0, 25, 25, Optional.empty()), r);
    assertEquals(25, position());
    // a sink that never acknowledges leaves the position alone
    addEvents(3);
    Relay.RelayResult failed = relay(batch -> {
      throw new IllegalStateException("no broker");
    }, 10).run();
    assertEquals(25, failed.toPosition());
    assertEquals(0, failed.delivered());
    assertEquals(3, failed.undelivered());
    assertTrue(failed.failure().orElseThrow().contains("no broker"), failed.toString());
    assertEquals(25, position());
    // nothing to do: no call to the sink, no commit
    Relay.RelayResult caughtUp = relay(new Destination(), 10).run();
    assertEquals(3, caughtUp.delivered());
    long commits = store.commits;
    assertEquals(0, relay(batch -> { throw new AssertionError("nothing to deliver"); }, 10).run().delivered());
    assertEquals(commits, store.commits);
  }

  @Test
  void aSinkFailingMidBatchGetsTheBatchAgainFromTheLastPosition() {
    addEvents(25);
    Destination dest = new Destination();
    dest.failAt = 15; // in the second batch, after 11..14 arrived
    Relay.RelayResult first = relay(dest, 10).run();
    assertEquals(10, first.toPosition());
    assertTrue(first.failure().isPresent());
    assertEquals(10, position());
    assertEquals(LongStream.rangeClosed(1, 14).boxed().toList(), dest.received);
    Relay.RelayResult second = relay(dest, 10).run();
    assertEquals(Optional.empty(), second.failure());
    assertEquals(25, second.toPosition());
    // 11..14 twice (at least once), never a gap, in order of first arrival
    assertEquals(LongStream.concat(LongStream.rangeClosed(1, 14), LongStream.rangeClosed(11, 25)).boxed().toList(),
        dest.received);
    dest.assertAtLeastOnceInOrder(25);
  }

  @Test
  void aRelayKilledAfterTheAckButBeforeItsPositionWasWrittenDeliversTheBatchAgain() {
    addEvents(12);
    Destination dest = new Destination();
    store.killAtNextPositionWrite = true;
    assertThrows(KilledException.class, () -> relay(dest, 5).run());
    assertEquals(0, position()); // the kill came before the commit
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), dest.received);
    relay(dest, 5).run();
    assertEquals(12, position());
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L), dest.received);
  }

  @Test
  void overARunWithRandomFailuresAndKillsEveryEventArrivesAtLeastOnceInOrder() {
    Random random = new Random(13);
    Destination dest = new Destination();
    int failures = 0;
    for (int round = 0; round < 40; round++) {
      addEvents(1 + random.nextInt(4));
      long last = store.read(MetadataView::lastEventSequence);
      if (random.nextInt(3) == 0) {
        dest.failAt = position() + 1 + random.nextInt((int) (last - position()));
        failures++;
      }
      store.killAtNextPositionWrite = random.nextInt(4) == 0;
      try {
        relay(dest, 1 + random.nextInt(5)).run();
      } catch (KilledException e) {
        failures++;
      }
      store.killAtNextPositionWrite = false;
    }
    relay(dest, 7).run();
    long last = store.read(MetadataView::lastEventSequence);
    assertEquals(last, position());
    dest.assertAtLeastOnceInOrder(last);
    assertTrue(failures >= 10 && dest.received.size() > last, failures + " failures, " + dest.received.size()
        + " deliveries of " + last + " events"); // the run did fail and redeliver
  }

  @Test
  void aRelayBehindTheRetainedWindowStopsWithATypedErrorUntilAPersonMovesItOn() {
    addEvents(12);
    assertEquals(7, (int) fixture.store.update("trim", view -> view.trimEvents(5)));
    Destination dest = new Destination();
    RelayBehindWindowException e = assertThrows(RelayBehindWindowException.class, () -> relay(dest, 10).run());
    assertEquals("test", e.relay());
    assertEquals(0, e.afterSequence());
    assertEquals(8, e.oldestRetained());
    assertTrue(e.getMessage().contains("relay 'test'") && e.getMessage().contains("skipTo(7)"), e.getMessage());
    assertEquals(List.of(), dest.received); // nothing skipped silently
    // status: the position row exists once the relay recorded one; a relay at 3 is behind too
    relay(dest, 10).skipTo(3);
    DatasetStatus.Delivery delivery = fixture.store.read(view -> new DatasetStatus.Delivery("test",
        view.deliveredPosition("test"), view.lastEventSequence(), view.oldestEventSequence()));
    assertEquals(new DatasetStatus.Delivery("test", 3, 12, 8), delivery);
    assertTrue(delivery.behindWindow());
    assertEquals(9, delivery.undelivered());
    DatasetStatus status = new DatasetStatus(DS, Instant.EPOCH, Optional.empty(), List.of(), List.of(), List.of(), 12,
        List.of(delivery));
    assertEquals(1, status.attention(Duration.ofHours(1)).size());
    assertTrue(status.attention(Duration.ofHours(1)).get(0).startsWith("relay 'test' delivered events up to 3"),
        status.attention(Duration.ofHours(1)).toString());
    // after the resync, a person moves it on; it delivers the rest
    relay(dest, 10).skipTo(7);
    relay(dest, 10).skipTo(5); // never back
    assertEquals(7, position());
    relay(dest, 10).run();
    assertEquals(List.of(8L, 9L, 10L, 11L, 12L), dest.received);
    assertTrue(!new DatasetStatus.Delivery("test", 12, 12, 8).behindWindow());
    assertTrue(!new DatasetStatus.Delivery("test", 7, 12, 8).behindWindow());
    IllegalArgumentException ahead = assertThrows(IllegalArgumentException.class, () -> relay(dest, 10).skipTo(13));
    assertTrue(ahead.getMessage().contains("got 13"), ahead.getMessage());
  }

  @Test
  void positionsAreKeptPerNameAndListed() {
    addEvents(4);
    new Relay(ops, "kafka", new Destination(), 3).run();
    new Relay(ops, "log", new Destination(), 3).batchSize(2);
    assertEquals(Map.of("kafka", 4L), store.read(MetadataView::deliveredPositions));
    addEvents(2);
    fixture.store.update("log", view -> {
      view.putDeliveredPosition("log", 5);
      return null;
    });
    assertEquals(Map.of("kafka", 4L, "log", 5L), store.read(MetadataView::deliveredPositions));
    assertThrows(IllegalArgumentException.class, () -> new Relay(ops, " ", new Destination(), 3));
    assertThrows(IllegalArgumentException.class, () -> new Relay(ops, "x", new Destination(), 0));
  }

  @Test
  void theLogSinkWritesOneJsonLinePerEventThatParsesBack() {
    addEvents(3);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (LogEventSink sink = LogEventSink.to(new PrintStream(bytes, true, StandardCharsets.UTF_8))) {
      relay(sink, 2).run();
    }
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    List<DatasetEvent> stored = store.read(view -> view.events(0, 10));
    assertEquals(stored, lines.stream().map(DatasetEvent::fromJson).toList());
    assertEquals(DatasetEvent.Type.CREATED, DatasetEvent.fromJson(lines.get(0)).type());
    assertEquals(Optional.empty(), DatasetEvent.fromJson(lines.get(0)).snapshot()); // a dataset event: no snapshot
    assertEquals("run-0", DatasetEvent.fromJson(lines.get(1)).runId().orElseThrow());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> DatasetEvent.fromJson("{\"x\":1}"));
    assertTrue(bad.getMessage().contains("{\"x\":1}"), bad.getMessage());
  }

  private static final class KilledException extends RuntimeException {
    KilledException() {
      super("relay killed before it recorded its position");
    }
  }

  /** The in-memory store, with the relay's next position commit failing as a kill would. */
  private static final class KillableStore implements MetadataStore {
    private final InMemoryMetadataStore store;
    boolean killAtNextPositionWrite;
    long commits;

    KillableStore(InMemoryMetadataStore store) {
      this.store = store;
    }

    @Override
    public <T> T update(String operation, Operation<T> op) {
      if (killAtNextPositionWrite && operation.startsWith("record delivered position")) {
        killAtNextPositionWrite = false;
        throw new KilledException();
      }
      commits++;
      return store.update(operation, op);
    }

    @Override
    public <T> T updateDeferrable(String operation, Operation<T> op) {
      commits++;
      return store.updateDeferrable(operation, op);
    }

    @Override
    public <T> T read(Function<MetadataView, T> reader) {
      return store.read(reader);
    }

    @Override
    public TransactionAware newTransactionAware() {
      return store.newTransactionAware();
    }

    @Override
    public MetadataView view(TransactionAware aware) {
      return store.view(aware);
    }

    @Override
    public int removeVersionsOf(Collection<Long> failedTransactions) {
      return store.removeVersionsOf(failedTransactions);
    }

    @Override
    public boolean compactDeletes(long threshold) {
      return store.compactDeletes(threshold);
    }

    @Override
    public long bytesRead() {
      return store.bytesRead();
    }

    @Override
    public long readCalls() {
      return store.readCalls();
    }
  }
}
