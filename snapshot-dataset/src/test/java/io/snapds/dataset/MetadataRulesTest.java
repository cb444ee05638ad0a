package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.store.CleanupProgress;
import io.snapds.dataset.store.InMemoryMetadataStore;
import io.snapds.dataset.store.MetadataView;
import io.snapds.dataset.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rules of the metadata operations, against the in-memory store (no HBase). */
class MetadataRulesTest {
  private static final DatasetId DS = DatasetId.of("t", "rules");
  private final MetadataFixture fixture = new MetadataFixture(DS);
  private final MutableClock clock = fixture.clock;
  private final InMemoryMetadataStore store = fixture.store;

  private SnapshotId begin(String runId, String sourceKey, long token) {
    return fixture.begin(runId, sourceKey, token);
  }

  private Publication.Published publish(SnapshotId id, String runId, String sourceKey, long token, int retainLast) {
    WriterOptions options = new WriterOptions("w", runId, sourceKey, NewSnapshot.lockName(sourceKey), 1024);
    Publication p = new Publication(DS, id, token, options, 10, 100, Map.of("k", "v"), RetentionPolicy.retainLast(retainLast));
    return store.update("publish", p::apply);
  }

  private SnapshotInfo stored(SnapshotId id) {
    return store.read(view -> view.snapshot(id)).orElseThrow();
  }

  @Test
  void expiresTwentyThousandSnapshotsInOneOperation() {
    int n = 20_000;
    store.update("seed", view -> {
      for (int i = 1; i <= n + 1; i++) {
        view.putSnapshot(SnapshotInfo.builder(SnapshotId.of(i)).state(SnapshotState.COMMITTED)
            .createdAt(clock.instant()).committedAt(clock.instant()).build());
      }
      view.moveCurrent(SnapshotId.of(n + 1), "publish");
      return null;
    });
    long before = store.cellsWritten();
    List<SnapshotInfo> expired = new ExpireSnapshotsImpl(fixture.ops()).retainLast(1).commit();
    assertEquals(n, expired.size());
    // every one of the 20,000 (all but the current) is stored EXPIRED and left the retained index
    List<SnapshotInfo> retained = store.read(MetadataView::retained);
    assertEquals(List.of(SnapshotId.of(n + 1)), retained.stream().map(SnapshotInfo::id).toList());
    assertEquals(n, store.read(MetadataView::awaitingCleanup).size());
    assertEquals(SnapshotState.EXPIRED, stored(SnapshotId.of(1)).state());
    assertEquals(SnapshotState.EXPIRED, stored(SnapshotId.of(n)).state());
    // the commit's transaction saw them expired, and the next one gave each its cleanup fence
    assertTrue(stored(SnapshotId.of(1)).cleanupFence() > 0, "expired without a cleanup fence");
    assertTrue(stored(SnapshotId.of(n)).cleanupFence() > 0, "expired without a cleanup fence");
    // written once per snapshot: its state column, out of one index, into another, its EXPIRED
    // event, then its cleanup fence column; no rewrite
    long cells = store.cellsWritten() - before;
    assertTrue(cells <= 5L * n + 10, "expiring " + n + " wrote " + cells + " cells");
  }

  @Test
  void aStateChangeWritesOnlyTheChangedColumn() {
    SnapshotId id = begin(null, null, 1);
    publish(id, null, null, 1, 3);
    long before = store.cellsWritten();
    store.update("tag", view -> {
      view.putSnapshot(view.snapshot(id).orElseThrow().toBuilder().tags(Set.of("gold")).build());
      return null;
    });
    // the tags column, the tag index row, and the pointer row's columns
    assertTrue(store.cellsWritten() - before <= 2 + 7, "wrote " + (store.cellsWritten() - before));
    assertEquals(Optional.of(id), store.read(view -> view.tagged("gold").map(SnapshotInfo::id)));
  }

  @Test
  void everySnapshotFieldRoundTrips() {
    SnapshotInfo full = SnapshotInfo.builder(SnapshotId.of(7)).state(SnapshotState.EXPIRED)
        .createdAt(Instant.ofEpochMilli(1000)).committedAt(Instant.ofEpochMilli(2000)).rowCount(3).byteCount(4)
        .writer("me").runId("run").sourceKey("src").parentId(SnapshotId.of(6)).tags(Set.of("a", "b"))
        .fencingToken(9).cleanupFence(11).cleanedAt(Instant.ofEpochMilli(3000)).summary(Map.of("x", "1", "y", "")).build();
    store.update("put", view -> {
      view.putSnapshot(full);
      return null;
    });
    assertEquals(full, stored(full.id()));
  }

  @Test
  void publishIsRefusedForAFencedWriter() {
    SnapshotId id = begin(null, null, 1);
    store.update("break", view -> {
      view.putFence(NewSnapshot.WRITER_LOCK, 2);
      return null;
    });
    FencedWriterException e = assertThrows(FencedWriterException.class, () -> publish(id, null, null, 1, 3));
    assertTrue(e.getMessage().contains(id.toString()), e.getMessage());
    assertEquals(SnapshotState.BUILDING, stored(id).state());
  }

  @Test
  void beginRefusesAnOlderLeaseAndAbortsStaleWritersOfTheSameLockOnly() {
    SnapshotId stale = begin(null, null, 1);
    SnapshotId keyed = begin(null, "day=1", 1);
    SnapshotId fresh = begin(null, null, 2);
    assertEquals(SnapshotState.ABORTED, stored(stale).state());
    assertEquals(SnapshotState.BUILDING, stored(keyed).state());
    assertEquals(SnapshotState.BUILDING, stored(fresh).state());
    assertThrows(FencedWriterException.class, () -> begin(null, null, 1));
  }

  @Test
  void anUnkeyedSnapshotBehindTheCurrentOneIsSuperseded() {
    SnapshotId older = begin(null, "k", 1);
    SnapshotId newer = begin(null, null, 1);
    publish(newer, null, null, 1, 3);
    SnapshotId late = SnapshotId.of(older.value());
    assertThrows(SupersededSnapshotException.class, () -> publish(late, null, null, 1, 3)); // as if unkeyed
  }

  @Test
  void aKeyedBuildBehindTheCurrentOneCommitsAndIsNotExpiredInItsOwnPublish() {
    SnapshotId keyed = begin(null, "day=1", 1);
    SnapshotId current = begin(null, null, 1);
    publish(current, null, null, 1, 1);
    Publication.Published p = publish(keyed, null, "day=1", 1, 1);
    assertEquals(SnapshotState.COMMITTED, p.snapshot().state());
    assertEquals(p.snapshot(), stored(keyed), "the state returned is the state stored");
    assertEquals(Optional.of(current), store.read(MetadataView::current));
    assertEquals(Optional.of(keyed), store.read(view -> view.snapshotForSource("day=1")));
  }

  @Test
  void oneRunIdIsPublishedOnceWhateverLockItsWritersHold() {
    SnapshotId a = begin("run-1", "key-a", 1);
    SnapshotId b = begin("run-1", "key-b", 1);
    assertFalse(publish(a, "run-1", "key-a", 1, 3).byAnotherWriter());
    Publication.Published second = publish(b, "run-1", "key-b", 1, 3);
    assertTrue(second.byAnotherWriter());
    assertEquals(a, second.snapshot().id());
    assertEquals(SnapshotState.BUILDING, stored(b).state(), "the second writer's snapshot never committed");
    assertEquals(Optional.of(a), store.read(view -> view.snapshotForRun("run-1")));
  }

  @Test
  void aRunOrSourceAlreadyPublishedIsReused() {
    SnapshotId id = begin("run-9", "src", 1);
    publish(id, "run-9", "src", 1, 3);
    assertEquals(Optional.of(id), store.read(v -> NewSnapshot.published(v, "run-9", null)).map(SnapshotInfo::id));
    assertEquals(Optional.of(id), store.read(v -> NewSnapshot.published(v, null, "src")).map(SnapshotInfo::id));
    assertEquals(Optional.empty(), store.read(v -> NewSnapshot.published(v, "run-10", "other")));
  }

  @Test
  void commitTimesFollowCommitOrderEvenWhenTheClockGoesBack() {
    SnapshotId s1 = begin(null, null, 1);
    publish(s1, null, null, 1, 3);
    clock.advance(Duration.ofMinutes(-5));
    SnapshotId s2 = begin(null, null, 1);
    publish(s2, null, null, 1, 3);
    List<HistoryEntry> h = store.read(MetadataView::history);
    assertEquals(List.of(s1, s2), h.stream().map(HistoryEntry::snapshot).toList());
    assertTrue(h.get(1).at().isAfter(h.get(0).at()), h.toString());
    assertEquals(Optional.of(s2), store.read(v -> v.currentAt(h.get(1).at()).map(HistoryEntry::snapshot)));
  }

  @Test
  void cleanupWaitsForReadersOlderThanTheFenceAndForPins() {
    SnapshotId s1 = begin(null, null, 1);
    publish(s1, null, null, 1, 1);
    long reader = store.startReader();
    SnapshotId s2 = begin(null, null, 1);
    publish(s2, null, null, 1, 1); // expires s1
    store.update("fence", view -> {
      Cleanup.fence(view);
      return null;
    });
    SnapshotInfo expired = stored(s1);
    assertEquals(SnapshotState.EXPIRED, expired.state());
    assertTrue(expired.cleanupFence() > reader);
    assertFalse(Cleanup.eligible(expired, reader, 0), "a reader older than the fence holds it");
    store.endReader(reader);
    assertTrue(Cleanup.eligible(expired, Long.MAX_VALUE, 0));
    assertFalse(Cleanup.eligible(expired, Long.MAX_VALUE, 1), "a pin holds it");
    assertFalse(Cleanup.eligible(stored(s2), Long.MAX_VALUE, 0), "committed snapshots are never cleaned");
  }

  @Test
  void deadWritersAreAbortedAndAbortedSnapshotsNeedNoWait() {
    long alive = store.startReader();
    SnapshotId living = SnapshotId.of(alive);
    store.update("begin living", view -> NewSnapshot.begin(view, DS, SnapshotInfo.builder(living)
        .state(SnapshotState.BUILDING).createdAt(clock.instant()).sourceKey("a").build(), "source/a", 1));
    SnapshotId dead = begin(null, null, 1); // its id is no transaction in progress
    List<SnapshotId> found = store.update("dead", Cleanup::abortDeadWriters);
    assertEquals(List.of(dead), found);
    SnapshotInfo aborted = stored(dead);
    assertEquals(SnapshotState.ABORTED, aborted.state());
    assertTrue(aborted.cleanupFence() > 0);
    assertTrue(Cleanup.eligible(aborted, 0, 0));
    assertEquals(SnapshotState.BUILDING, stored(living).state());
  }

  @Test
  void theHorizonDeletesOldHistoryAndCleanedRecordsAndAnswersForThem() {
    SnapshotId first = null;
    for (int i = 0; i < 30; i++) {
      SnapshotId id = begin("run-" + i, null, 1);
      publish(id, "run-" + i, null, 1, 2);
      first = first == null ? id : first;
      clock.advance(Duration.ofSeconds(1));
    }
    store.update("fence", view -> {
      Cleanup.fence(view);
      return null;
    });
    store.update("cleaned", view -> {
      for (SnapshotInfo s : view.awaitingCleanup()) {
        view.putSnapshot(s.toBuilder().cleanedAt(view.commitTime()).build());
      }
      return null;
    });
    int rowsBefore = store.rowCount();
    MetadataView.HorizonTrim trim = store.update("trim", view -> {
      view.trimEvents(5); // the outbox window, which the pruner trims alongside
      return view.trimToHorizon(5, Optional.empty(), NewSnapshot::lockName);
    });
    assertEquals(25, trim.historyEntries());
    assertEquals(23, trim.snapshotRecords()); // 28 cleaned, 5 kept
    store.update("purge", view -> view.trimToHorizon(5, Optional.empty(), NewSnapshot::lockName));
    assertEquals(5, store.read(MetadataView::history).size());
    SnapshotId gone = first;
    assertTrue(store.read(v -> v.snapshot(gone)).isEmpty());
    assertTrue((boolean) store.read(v -> v.pastHorizon(gone)));
    assertTrue(store.read(v -> v.snapshotForRun("run-0")).isEmpty());
    assertTrue(store.read(MetadataView::historyHorizon).isPresent());
    assertEquals(2, store.read(MetadataView::retained).size());
    assertTrue(store.rowCount() < rowsBefore / 2, store.rowCount() + " rows of " + rowsBefore);
  }

  /**
   * A progress row a concurrent cleanup recorded after another had finished the snapshot (and
   * removed the row it knew of) is left behind: it goes with the snapshot's record at the
   * horizon, so such rows never outgrow the retained records.
   */
  @Test
  void aProgressRowLeftBehindGoesWithItsRecordAtTheHorizon() {
    List<SnapshotId> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      SnapshotId id = begin("run-" + i, null, 1);
      publish(id, "run-" + i, null, 1, 1);
      ids.add(id);
      clock.advance(Duration.ofSeconds(1));
    }
    store.update("fence", view -> {
      Cleanup.fence(view);
      return null;
    });
    store.update("cleaned", view -> {
      for (SnapshotInfo s : view.awaitingCleanup()) {
        view.putSnapshot(s.toBuilder().cleanedAt(view.commitTime()).build());
      }
      return null;
    });
    SnapshotId late = ids.get(0);
    CleanupProgress piece = CleanupProgress.NONE.with(new CleanupProgress.KeyRange(new byte[0], new byte[] {'m'}), 7);
    store.update("a late progress record", view -> {
      view.putCleanupProgress(late, piece);
      return null;
    });
    assertEquals(piece, store.read(v -> v.cleanupProgress(late)));
    MetadataView.HorizonTrim trim = store.update("trim",
        view -> view.trimToHorizon(1, Optional.empty(), NewSnapshot::lockName));
    assertEquals(2, trim.snapshotRecords()); // 3 cleaned, 1 kept
    assertTrue(store.read(v -> v.snapshot(late)).isEmpty());
    assertEquals(CleanupProgress.NONE, store.read(v -> v.cleanupProgress(late)), "the late progress row went too");
  }

  /**
   * Issue #36 item 6: a progress record of a cleanup that was still deleting when another cleanup
   * finished the snapshot and the horizon trimmed its record landed after the trim, and nothing
   * removed it again: an orphan {@code q} row for good. A progress record is written only while the
   * snapshot's record is there and not yet cleaned.
   */
  @Test
  void aProgressRecordAfterTheHorizonTrimmedItsSnapshotLeavesNoRow() {
    List<SnapshotId> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      SnapshotId id = begin("run-" + i, null, 1);
      publish(id, "run-" + i, null, 1, 1);
      ids.add(id);
      clock.advance(Duration.ofSeconds(1));
    }
    store.update("fence", view -> {
      Cleanup.fence(view);
      return null;
    });
    store.update("cleaned", view -> {
      for (SnapshotInfo s : view.awaitingCleanup()) {
        view.putSnapshot(s.toBuilder().cleanedAt(view.commitTime()).build());
      }
      return null;
    });
    store.update("trim", view -> view.trimToHorizon(1, Optional.empty(), NewSnapshot::lockName));
    SnapshotId late = ids.get(0);
    assertTrue(store.read(v -> v.snapshot(late)).isEmpty(), "the horizon trimmed the record");
    SnapshotId cleanedKept = ids.get(2);
    assertTrue(store.read(v -> v.snapshot(cleanedKept)).orElseThrow().cleanedAt().isPresent());
    CleanupProgress piece = CleanupProgress.NONE.with(new CleanupProgress.KeyRange(new byte[0], new byte[] {'m'}), 7);
    for (SnapshotId id : List.of(late, cleanedKept)) {
      store.update("a late progress record", view -> {
        RangeCleaner.recordProgress(view, id, piece);
        return null;
      });
    }
    store.update("trim again", view -> view.trimToHorizon(1, Optional.empty(), NewSnapshot::lockName));
    assertEquals(0, store.liveRows((byte) 'q'), "no progress row of a snapshot cleaned or past the horizon");

    // an orphan an earlier version wrote (its progress record did not look at the record) goes at the next trim
    store.update("an orphan of an earlier version", view -> {
      view.putCleanupProgress(late, piece);
      return null;
    });
    assertEquals(1, store.liveRows((byte) 'q'));
    store.update("trim", view -> view.trimToHorizon(1, Optional.empty(), NewSnapshot::lockName));
    assertEquals(0, store.liveRows((byte) 'q'), "the orphan went at the next trim");
  }
}
