package io.snapds.dataset;

import io.snapds.dataset.store.DatasetState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Which committed snapshots a retention policy lets go, and marking them expired. */
final class Retention {
  private Retention() {}

  /**
   * Committed snapshots that are neither among the newest {@code retainLast}, nor younger than
   * the max age (if set), nor current, nor tagged.
   */
  static List<SnapshotInfo> expirable(DatasetState state, RetentionPolicy policy, Instant now) {
    List<SnapshotInfo> out = new ArrayList<>();
    List<SnapshotInfo> retained = state.retained(); // newest first
    for (int i = policy.retainLast(); i < retained.size(); i++) {
      SnapshotInfo s = retained.get(i);
      boolean young = policy.maxAge().isPresent() && s.committedAt().isPresent()
          && s.committedAt().get().isAfter(now.minus(policy.maxAge().get()));
      if (!young && isExpirable(state, s)) {
        out.add(s);
      }
    }
    return out;
  }

  static boolean isExpirable(DatasetState state, SnapshotInfo s) {
    return s.state() == SnapshotState.COMMITTED && s.tags().isEmpty()
        && !state.current().map(s.id()::equals).orElse(false);
  }

  static DatasetState expire(DatasetState state, List<SnapshotInfo> expired) {
    DatasetState updated = state;
    for (SnapshotInfo s : expired) {
      updated = updated.withSnapshot(s.toBuilder().state(SnapshotState.EXPIRED).build());
    }
    return updated;
  }
}
