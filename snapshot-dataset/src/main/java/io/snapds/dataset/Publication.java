package io.snapds.dataset;

import io.snapds.dataset.store.MetadataView;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The publish rule, as one metadata change: checks the fence, that the snapshot is still
 * BUILDING, that an unkeyed snapshot is newer than the current one and that its run id was not
 * published (or staged) by another writer (whatever lock that writer held); then records it
 * COMMITTED, moves the current pointer (keyed snapshots behind a newer current one only commit),
 * records the run and source indexes and applies retention, never to the snapshot being published.
 *
 * <p>Staging ({@link #stage}) runs the same checks and records the snapshot STAGED instead: its
 * parent is the snapshot current now (the one a {@link StagedPublication} later checks is still
 * current), its run id is taken, and nothing else moves: no current pointer, no source index, no
 * retention.
 *
 * @param group the publish group this commit belongs to ({@link PublishGroup}), or null
 */
record Publication(DatasetId dataset, SnapshotId id, long token, WriterOptions options, long rows,
    long bytes, Map<String, String> summary, RetentionPolicy retention, boolean stage, GroupTag group) {

  /** What a publish did: the snapshot as stored, what retention expired, or the run's earlier one. */
  record Published(SnapshotInfo snapshot, List<SnapshotInfo> expired, boolean byAnotherWriter) {}

  /** A direct publish (no stage, no group). */
  Publication(DatasetId dataset, SnapshotId id, long token, WriterOptions options, long rows, long bytes,
      Map<String, String> summary, RetentionPolicy retention) {
    this(dataset, id, token, options, rows, bytes, summary, retention, false, null);
  }

  Publication inGroup(GroupTag tag) {
    return new Publication(dataset, id, token, options, rows, bytes, summary, retention, stage, tag);
  }

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
      Optional<SnapshotInfo> earlier = earlierOfRun(view, options.runId());
      if (earlier.isPresent() && !earlier.get().id().equals(id)) {
        if (group != null) { // a group publishes all of its members or none
          throw new SnapshotNotAvailableException(dataset, id, SnapshotState.BUILDING, "run '" + options.runId() + "' of dataset " + dataset
              + " was published or staged as snapshot " + earlier.get().id() + " by another writer: snapshot " + id
              + " cannot be published with group " + group.id() + ", and so nothing of the group is");
        }
        return new Published(earlier.get(), List.of(), true);
      }
    }
    Optional<SnapshotId> current = view.current();
    boolean moveCurrent = current.isEmpty() || id.isAfter(current.get());
    // a keyed snapshot behind a newer current one only commits, but not as a group's member,
    // which must become current with the others
    if (!moveCurrent && (options.sourceKey() == null || stage || group != null)) {
      throw new SupersededSnapshotException(dataset, id, current.get());
    }
    SnapshotInfo.Builder record = building.toBuilder().rowCount(rows).byteCount(bytes)
        .parentId(current.orElse(null)).summary(summary);
    if (options.runId() != null) {
      view.putRun(options.runId(), id);
    }
    if (stage) {
      SnapshotInfo staged = record.state(SnapshotState.STAGED).stagedAt(view.commitTime()).build();
      view.putSnapshot(staged);
      return new Published(staged, List.of(), false);
    }
    SnapshotInfo committed = record.state(SnapshotState.COMMITTED).committedAt(view.commitTime())
        .group(group == null ? null : group.id(), group == null ? Set.of() : group.members()).build();
    view.putSnapshot(committed);
    if (moveCurrent) {
      view.moveCurrent(id, group == null ? "publish" : group.reason("publish"));
    }
    if (options.sourceKey() != null) {
      view.putSource(options.sourceKey(), id);
    }
    List<SnapshotInfo> expired = Retention.expirable(view, retention, view.commitTime(), id);
    Retention.expire(view, expired);
    return new Published(committed, expired, false);
  }

  /**
   * The snapshot a run id is taken by: the one published or staged under it, not one that was
   * staged and then discarded (a run whose audit failed may run again under the same id).
   */
  static Optional<SnapshotInfo> earlierOfRun(MetadataView view, String runId) {
    return view.snapshotForRun(runId).flatMap(view::snapshot).filter(s -> !s.discarded());
  }
}
