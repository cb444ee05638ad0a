package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.store.DatasetState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetentionTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  private static DatasetState state(int snapshots, Duration spacing) {
    DatasetState s = DatasetState.empty();
    for (int i = 1; i <= snapshots; i++) {
      Instant at = NOW.minus(spacing.multipliedBy(snapshots - i));
      SnapshotId id = SnapshotId.of(i);
      s = s.withSnapshot(SnapshotInfo.builder(id).state(SnapshotState.COMMITTED).createdAt(at).committedAt(at).build())
          .withCurrent(id, new HistoryEntry(at, id, "publish"));
    }
    return s;
  }

  private static List<Long> ids(List<SnapshotInfo> infos) {
    return infos.stream().map(i -> i.id().value()).toList();
  }

  @Test
  void keepsTheNewestN() {
    assertEquals(List.of(3L, 2L, 1L), ids(Retention.expirable(state(6, Duration.ofHours(1)), RetentionPolicy.retainLast(3), NOW)));
  }

  @Test
  void maxAgeKeepsYoungerSnapshotsBeyondTheCount() {
    RetentionPolicy p = RetentionPolicy.retainLast(2).withMaxAge(Duration.ofMinutes(150));
    // committed 5h,4h,3h,2h,1h,0h ago: the two newest by count, 2h ago by age
    assertEquals(List.of(3L, 2L, 1L), ids(Retention.expirable(state(6, Duration.ofHours(1)), p, NOW)));
  }

  @Test
  void neverExpiresCurrentOrTagged() {
    DatasetState s = state(5, Duration.ofHours(1));
    s = s.withSnapshot(s.snapshot(SnapshotId.of(2)).orElseThrow().toBuilder().tags(Set.of("gold")).build());
    s = s.withCurrent(SnapshotId.of(1), new HistoryEntry(NOW, SnapshotId.of(1), "rollback"));
    assertEquals(List.of(3L), ids(Retention.expirable(s, RetentionPolicy.retainLast(2), NOW)));
  }
}
