package io.snapds.dataset;

import io.snapds.dataset.store.MetadataView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Which committed snapshots a retention policy lets go, and marking them expired. */
final class Retention {
  private Retention() {}

  /**
   * Committed snapshots that are neither among the newest {@code retainLast}, nor younger than
   * the max age (if set), nor current, nor tagged, nor {@code publishing} (a snapshot never
   * expires in the transaction that publishes it: the state returned is the state stored).
   */
  static List<SnapshotInfo> expirable(MetadataView view, RetentionPolicy policy, Instant now, SnapshotId publishing) {
    List<SnapshotInfo> out = new ArrayList<>();
    List<SnapshotInfo> retained = view.retained(); // newest first
    for (int i = policy.retainLast(); i < retained.size(); i++) {
      SnapshotInfo s = retained.get(i);
      boolean young = policy.maxAge().isPresent() && s.committedAt().isPresent()
          && s.committedAt().get().isAfter(now.minus(policy.maxAge().get()));
      if (!young && !s.id().equals(publishing) && isExpirable(view, s)) {
        out.add(s);
      }
    }
    return out;
  }

  static boolean isExpirable(MetadataView view, SnapshotInfo s) {
    return s.state() == SnapshotState.COMMITTED && s.tags().isEmpty()
        && !view.current().map(s.id()::equals).orElse(false);
  }

  /** Marks each of {@code expired} EXPIRED: one write per snapshot, nothing copied. */
  static void expire(MetadataView view, List<SnapshotInfo> expired) {
    for (SnapshotInfo s : expired) {
      view.putSnapshot(s.toBuilder().state(SnapshotState.EXPIRED).build());
    }
  }
}
