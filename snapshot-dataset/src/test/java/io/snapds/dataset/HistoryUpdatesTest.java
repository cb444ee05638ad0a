package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.store.MetadataView;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The history operations (expire, roll back, tag) on their operations context over the in-memory
 * store: what each refuses, with which typed error, that {@code apply()} changes nothing, and what
 * {@code commit()} stores. HistoryIT runs the same operations on the real stack.
 */
class HistoryUpdatesTest {
  private static final DatasetId DS = DatasetId.of("t", "history");
  private final MetadataFixture fixture = new MetadataFixture(DS);

  private SnapshotInfo stored(SnapshotId id) {
    return fixture.store.read(view -> view.snapshot(id)).orElseThrow();
  }

  private Optional<SnapshotId> current() {
    return fixture.store.read(MetadataView::current);
  }

  @Test
  void rollbackMovesTheCurrentPointerOnlyToACommittedSnapshot() {
    SnapshotId s1 = fixture.publish("a");
    SnapshotId s2 = fixture.publish("b");
    SnapshotId building = fixture.begin(null, null, 2);

    assertEquals(s1, new RollbackToImpl(fixture.ops(), s1).apply().id());
    assertEquals(Optional.of(s2), current(), "apply previews without moving the pointer");
    assertEquals(s1, new RollbackToImpl(fixture.ops(), s1).commit().id());
    assertEquals(Optional.of(s1), current());
    int entries = fixture.store.read(MetadataView::history).size();
    new RollbackToImpl(fixture.ops(), s1).commit();
    assertEquals(entries, fixture.store.read(MetadataView::history).size(), "rolling back to the current snapshot records nothing");

    SnapshotNotAvailableException unknown = assertThrows(SnapshotNotAvailableException.class,
        () -> new RollbackToImpl(fixture.ops(), SnapshotId.of(12345)).commit());
    assertEquals("snapshot 12345 does not exist in dataset " + DS, unknown.getMessage());
    SnapshotNotAvailableException notReadable = assertThrows(SnapshotNotAvailableException.class,
        () -> new RollbackToImpl(fixture.ops(), building).apply());
    assertEquals(Optional.of(SnapshotState.BUILDING), notReadable.state());
    assertEquals(Optional.of(s1), current());
  }

  @Test
  void aTagNamesOneCommittedSnapshotAndUntaggingNeedsTheTag() {
    SnapshotId s1 = fixture.publish("a");
    SnapshotId s2 = fixture.publish("b");
    SnapshotId building = fixture.begin(null, null, 2);

    assertEquals(Set.of("gold"), new ManageTagsImpl(fixture.ops(), s1).tag("gold").apply().tags());
    assertEquals(Set.of(), stored(s1).tags(), "apply previews without storing");
    assertEquals(Set.of("gold"), new ManageTagsImpl(fixture.ops(), s1).tag("gold").commit().tags());
    assertEquals(Set.of("gold"), stored(s1).tags());

    IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
        () -> new ManageTagsImpl(fixture.ops(), s2).tag("gold").commit());
    assertEquals("tag 'gold' already names snapshot " + s1 + " (untag it there first)", taken.getMessage());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> new ManageTagsImpl(fixture.ops(), s2).untag("gold").commit());
    assertEquals("snapshot " + s2 + " has no tag 'gold'", missing.getMessage());
    IllegalArgumentException badName = assertThrows(IllegalArgumentException.class,
        () -> new ManageTagsImpl(fixture.ops(), s2).tag("no spaces"));
    assertTrue(badName.getMessage().startsWith("invalid tag 'no spaces'"), badName.getMessage());
    SnapshotNotAvailableException notReadable = assertThrows(SnapshotNotAvailableException.class,
        () -> new ManageTagsImpl(fixture.ops(), building).tag("wip").commit());
    assertEquals(Optional.of(SnapshotState.BUILDING), notReadable.state());
    assertEquals(Set.of(), new ManageTagsImpl(fixture.ops(), building).apply().tags(),
        "without a tag to add, an unreadable snapshot is only looked at");

    assertEquals(Set.of(), new ManageTagsImpl(fixture.ops(), s1).untag("gold").commit().tags());
    assertEquals(Set.of(), stored(s1).tags());
  }

  @Test
  void expiryRefusesTheCurrentTaggedOrUnpublishedSnapshotsAndFencesWhatItExpires() {
    SnapshotId s1 = fixture.publish("a");
    SnapshotId s2 = fixture.publish("b");
    SnapshotId s3 = fixture.publish("c");
    SnapshotId building = fixture.begin(null, null, 2);
    new ManageTagsImpl(fixture.ops(), s2).tag("gold").commit();

    IllegalArgumentException isCurrent = assertThrows(IllegalArgumentException.class,
        () -> new ExpireSnapshotsImpl(fixture.ops()).expire(s3).commit());
    assertEquals("cannot expire snapshot " + s3 + ": it is the current snapshot (roll back or publish first)",
        isCurrent.getMessage());
    IllegalArgumentException tagged = assertThrows(IllegalArgumentException.class,
        () -> new ExpireSnapshotsImpl(fixture.ops()).expire(s2).commit());
    assertEquals("cannot expire snapshot " + s2 + ": it is tagged [gold] (untag it first)", tagged.getMessage());
    IllegalArgumentException unpublished = assertThrows(IllegalArgumentException.class,
        () -> new ExpireSnapshotsImpl(fixture.ops()).expire(building).commit());
    assertEquals("cannot expire snapshot " + building + ": it is BUILDING", unpublished.getMessage());
    assertThrows(SnapshotNotAvailableException.class,
        () -> new ExpireSnapshotsImpl(fixture.ops()).expire(SnapshotId.of(12345)).apply());

    // retainLast(1) selects every committed snapshot but the newest, less the tagged one
    assertEquals(List.of(s1), ids(new ExpireSnapshotsImpl(fixture.ops()).retainLast(1).apply()));
    assertEquals(SnapshotState.COMMITTED, stored(s1).state(), "apply previews without expiring");
    assertEquals(List.of(s1), ids(new ExpireSnapshotsImpl(fixture.ops()).retainLast(1).commit()));
    SnapshotInfo expired = stored(s1);
    assertEquals(SnapshotState.EXPIRED, expired.state());
    assertTrue(expired.cleanupFence() > 0, "the commit is followed by the cleanup fence of what it expired");
    assertEquals(List.of(s1), ids(fixture.store.read(MetadataView::awaitingCleanup)));
    assertEquals(List.of(), new ExpireSnapshotsImpl(fixture.ops()).retainLast(1).commit(), "nothing left to expire");
  }

  private static List<SnapshotId> ids(List<SnapshotInfo> snapshots) {
    return snapshots.stream().map(SnapshotInfo::id).toList();
  }
}
