package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Retention by count and age, tags, rollback, explicit expiry and time travel. */
@ExtendWith(MiniClusterExtension.class)
class HistoryIT {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T00:00:00Z"));

  private SnapshotDataset create(RetentionPolicy retention) {
    return MiniCluster.get().datasets().withClock(clock).withTestCommitClock(clock)
        .create(MiniCluster.uniqueDataset("hist"), DatasetProperties.builder().retention(retention).build());
  }

  private SnapshotInfo publish(SnapshotDataset ds, String label) {
    clock.advance(Duration.ofHours(1));
    return writeAndCommit(ds.newSnapshot().begin(), label, 5);
  }

  private static List<SnapshotId> ids(List<SnapshotInfo> infos) {
    return infos.stream().map(SnapshotInfo::id).toList();
  }

  @Test
  void retentionByCountExpiresAtPublishAndKeepsHistory() {
    SnapshotDataset ds = create(RetentionPolicy.retainLast(2));
    SnapshotInfo s1 = publish(ds, "a");
    SnapshotInfo s2 = publish(ds, "b");
    SnapshotInfo s3 = publish(ds, "c");
    assertEquals(List.of(s3.id(), s2.id()), ids(ds.retainedSnapshots()));
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(s1.id()).state());
    assertEquals(Optional.of(s2.id()), ds.snapshot(s3.id()).parentId());
    SnapshotNotAvailableException e = assertThrows(SnapshotNotAvailableException.class, () -> ds.readSnapshot(s1.id()));
    assertEquals(Optional.of(SnapshotState.EXPIRED), e.state());
    assertEquals(List.of(s1.id(), s2.id(), s3.id()), ds.history().stream().map(HistoryEntry::snapshot).toList());
  }

  @Test
  void retentionByAgeKeepsYoungSnapshotsBeyondTheCount() {
    SnapshotDataset ds = create(RetentionPolicy.retainLast(1).withMaxAge(Duration.ofMinutes(150)));
    SnapshotInfo s1 = publish(ds, "a");
    SnapshotInfo s2 = publish(ds, "b");
    SnapshotInfo s3 = publish(ds, "c");
    assertEquals(List.of(s3.id(), s2.id(), s1.id()), ids(ds.retainedSnapshots()), "all younger than 150 min");
    SnapshotInfo s4 = publish(ds, "d");
    // s1 is now 3h old, s2 2h: s1 goes, s2 stays by age
    assertEquals(List.of(s4.id(), s3.id(), s2.id()), ids(ds.retainedSnapshots()));
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(s1.id()).state());
  }

  @Test
  void tagsProtectFromRetentionAndNameOneSnapshot() {
    SnapshotDataset ds = create(RetentionPolicy.retainLast(1));
    SnapshotInfo s1 = publish(ds, "a");
    assertEquals(Set.of("golden"), ds.manageTags(s1.id()).tag("golden").commit().tags());
    SnapshotInfo s2 = publish(ds, "b");
    SnapshotInfo s3 = publish(ds, "c");
    assertEquals(List.of(s3.id(), s1.id()), ids(ds.retainedSnapshots()));
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(s2.id()).state());
    assertEquals(s1.id(), ds.readTag("golden").snapshotId());
    IllegalArgumentException dup = assertThrows(IllegalArgumentException.class,
        () -> ds.manageTags(s3.id()).tag("golden").commit());
    assertEquals("tag 'golden' already names snapshot " + s1.id() + " (untag it there first)", dup.getMessage());
    IllegalArgumentException expireTagged = assertThrows(IllegalArgumentException.class,
        () -> ds.expireSnapshots().expire(s1.id()).commit());
    assertEquals("cannot expire snapshot " + s1.id() + ": it is tagged [golden] (untag it first)", expireTagged.getMessage());
    ds.manageTags(s1.id()).untag("golden").commit();
    assertEquals(List.of(s1), ds.expireSnapshots().expire(s1.id()).apply().stream()
        .map(i -> ds.snapshot(i.id())).toList(), "apply previews without changing");
    assertEquals(SnapshotState.COMMITTED, ds.snapshot(s1.id()).state());
    assertEquals(List.of(s1.id()), ids(ds.expireSnapshots().expire(s1.id()).commit()));
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(s1.id()).state());
  }

  @Test
  void rollbackMovesCurrentBackAndForward() {
    SnapshotDataset ds = create(RetentionPolicy.retainLast(5));
    SnapshotInfo s1 = publish(ds, "a");
    SnapshotInfo s2 = publish(ds, "b");
    assertEquals(s1, ds.rollbackTo(s1.id()).commit());
    assertEquals(s1.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals("a", Fixtures.observe(ds.readCurrent()).labels().get(0));
    assertEquals(List.of(s2.id(), s1.id()), ids(ds.retainedSnapshots()), "newer snapshot stays retained");
    ds.rollbackTo(s2.id()).commit();
    assertEquals(s2.id(), ds.currentSnapshot().orElseThrow().id());
    List<HistoryEntry> h = ds.history();
    assertEquals(List.of("publish", "publish", "rollback", "rollback"), h.stream().map(HistoryEntry::reason).toList());
    IllegalArgumentException current = assertThrows(IllegalArgumentException.class,
        () -> ds.expireSnapshots().expire(s2.id()).commit());
    assertTrue(current.getMessage().contains("it is the current snapshot"), current.getMessage());
    SnapshotNotAvailableException unknown = assertThrows(SnapshotNotAvailableException.class,
        () -> ds.rollbackTo(SnapshotId.of(12345)).commit());
    assertEquals("snapshot 12345 does not exist in dataset " + ds.id(), unknown.getMessage());
  }

  @Test
  void timeTravelReadsWhatWasCurrentThen() {
    SnapshotDataset ds = create(RetentionPolicy.retainLast(2));
    Instant before = clock.instant();
    SnapshotInfo s1 = publish(ds, "a");
    Instant afterFirst = clock.instant().plusSeconds(60);
    SnapshotInfo s2 = publish(ds, "b");
    SnapshotNotAvailableException none = assertThrows(SnapshotNotAvailableException.class, () -> ds.readAsOf(before));
    assertEquals("dataset " + ds.id() + " had no current snapshot at " + before, none.getMessage());
    assertEquals(s1.id(), ds.readAsOf(afterFirst).snapshotId());
    assertEquals("a", Fixtures.observe(ds.readAsOf(afterFirst)).labels().get(0));
    assertEquals(s2.id(), ds.readAsOf(clock.instant()).snapshotId());
    publish(ds, "c");
    SnapshotNotAvailableException expired = assertThrows(SnapshotNotAvailableException.class,
        () -> ds.readAsOf(afterFirst));
    assertEquals(Optional.of(SnapshotState.EXPIRED), expired.state());
  }

  @Test
  void expireOlderThanWithRetainLast() {
    SnapshotDataset ds = create(RetentionPolicy.retainLast(10));
    SnapshotInfo s1 = publish(ds, "a");
    SnapshotInfo s2 = publish(ds, "b");
    SnapshotInfo s3 = publish(ds, "c");
    SnapshotInfo s4 = publish(ds, "d");
    List<SnapshotInfo> expired = ds.expireSnapshots().olderThan(clock.instant()).retainLast(2).commit();
    assertEquals(List.of(s2.id(), s1.id()), ids(expired));
    assertEquals(List.of(s4.id(), s3.id()), ids(ds.retainedSnapshots()));
  }
}
