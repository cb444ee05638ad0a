package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.store.InMemoryMetadataStore;
import io.snapds.dataset.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetentionTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  /** {@code snapshots} committed snapshots {@code spacing} apart, the last one at NOW and current. */
  static InMemoryMetadataStore store(int snapshots, Duration spacing) {
    InMemoryMetadataStore store = new InMemoryMetadataStore(DatasetId.of("t", "retention"), new MutableClock(NOW));
    store.update("seed", view -> {
      for (int i = 1; i <= snapshots; i++) {
        Instant at = NOW.minus(spacing.multipliedBy(snapshots - i));
        SnapshotId id = SnapshotId.of(i);
        view.putSnapshot(SnapshotInfo.builder(id).state(SnapshotState.COMMITTED).createdAt(at).committedAt(at).build());
      }
      view.moveCurrent(SnapshotId.of(snapshots), "publish");
      return null;
    });
    return store;
  }

  private static List<Long> ids(List<SnapshotInfo> infos) {
    return infos.stream().map(i -> i.id().value()).toList();
  }

  private static List<Long> expirable(InMemoryMetadataStore store, RetentionPolicy p, SnapshotId publishing) {
    return ids(store.read(view -> Retention.expirable(view, p, NOW, publishing)));
  }

  @Test
  void keepsTheNewestN() {
    assertEquals(List.of(3L, 2L, 1L), expirable(store(6, Duration.ofHours(1)), RetentionPolicy.retainLast(3), null));
  }

  @Test
  void maxAgeKeepsYoungerSnapshotsBeyondTheCount() {
    RetentionPolicy p = RetentionPolicy.retainLast(2).withMaxAge(Duration.ofMinutes(150));
    // committed 5h,4h,3h,2h,1h,0h ago: the two newest by count, 2h ago by age
    assertEquals(List.of(3L, 2L, 1L), expirable(store(6, Duration.ofHours(1)), p, null));
  }

  @Test
  void neverExpiresCurrentOrTagged() {
    InMemoryMetadataStore store = store(5, Duration.ofHours(1));
    store.update("tag and roll back", view -> {
      view.putSnapshot(view.snapshot(SnapshotId.of(2)).orElseThrow().toBuilder().tags(Set.of("gold")).build());
      view.moveCurrent(SnapshotId.of(1), "rollback");
      return null;
    });
    assertEquals(List.of(3L), expirable(store, RetentionPolicy.retainLast(2), null));
  }

  @Test
  void neverExpiresTheSnapshotBeingPublished() {
    // snapshot 1 is the one being published (a keyed build behind the current 5)
    assertEquals(List.of(3L, 2L), expirable(store(5, Duration.ofHours(1)), RetentionPolicy.retainLast(2), SnapshotId.of(1)));
  }
}
