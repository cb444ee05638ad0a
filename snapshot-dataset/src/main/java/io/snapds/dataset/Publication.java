package io.snapds.dataset;

import io.snapds.dataset.store.MetadataView;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The publish rule, as one metadata change: checks the fence, that the snapshot is still
 * BUILDING, that an unkeyed snapshot is newer than the current one and that its run id was not
 * published by another writer (whatever lock that writer held); then records it COMMITTED,
 * moves the current pointer (keyed snapshots behind a newer current one only commit), records
 * the run and source indexes and applies retention, never to the snapshot being published.
 */
record Publication(DatasetId dataset, SnapshotId id, long token, WriterOptions options, long rows,
    long bytes, Map<String, String> summary, RetentionPolicy retention) {

  /** What a publish did: the snapshot as stored, what retention expired, or the run's earlier one. */
  record Published(SnapshotInfo snapshot, List<SnapshotInfo> expired, boolean byAnotherWriter) {}

  Published apply(MetadataView view) {
    // fencing first: a writer that lost its lease learns that, whatever became of its snapshot
    long fence = view.fence(options.lockName());
    if (fence > token) {
      throw new FencedWriterException(dataset, id, token, fence);
    }
    SnapshotInfo building = view.snapshot(id)
        .orElseThrow(() -> new SnapshotNotAvailableException(dataset, id, null));
    if (building.state() != SnapshotState.BUILDING) {
      throw new SnapshotNotAvailableException(dataset, id, building.state());
    }
    if (options.runId() != null) {
      Optional<SnapshotInfo> earlier = view.snapshotForRun(options.runId()).flatMap(view::snapshot);
      if (earlier.isPresent() && !earlier.get().id().equals(id)) {
        return new Published(earlier.get(), List.of(), true);
      }
    }
    Optional<SnapshotId> current = view.current();
    boolean moveCurrent = current.isEmpty() || id.isAfter(current.get());
    if (!moveCurrent && options.sourceKey() == null) {
      throw new SupersededSnapshotException(dataset, id, current.get());
    }
    SnapshotInfo committed = building.toBuilder().state(SnapshotState.COMMITTED).committedAt(view.commitTime())
        .rowCount(rows).byteCount(bytes).parentId(current.orElse(null)).summary(summary).build();
    view.putSnapshot(committed);
    if (moveCurrent) {
      view.moveCurrent(id, "publish");
    }
    if (options.runId() != null) {
      view.putRun(options.runId(), id);
    }
    if (options.sourceKey() != null) {
      view.putSource(options.sourceKey(), id);
    }
    List<SnapshotInfo> expired = Retention.expirable(view, retention, view.commitTime(), id);
    Retention.expire(view, expired);
    return new Published(committed, expired, false);
  }
}
