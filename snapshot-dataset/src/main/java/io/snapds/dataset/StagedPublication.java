package io.snapds.dataset;

import io.snapds.dataset.store.MetadataView;
import java.util.List;
import java.util.Optional;

/**
 * The rule that publishes a STAGED snapshot, as one metadata change: the snapshot must be staged
 * (a stage published already is returned as it is: a retried publish publishes once; one
 * committed directly is refused); unless {@code replace}, the snapshot current now must be the one it was staged
 * on, its parent; then it is recorded COMMITTED, made current, indexed by its source key, and
 * retention applies, never to it. Its parent is then the snapshot it replaced as current (the one
 * it was staged on, unless it replaced another).
 *
 * @param group the publish group it belongs to ({@link PublishGroup}), or null
 */
record StagedPublication(DatasetId dataset, SnapshotId id, boolean replace, RetentionPolicy retention, GroupTag group) {

  Publication.Published apply(MetadataView view) {
    SnapshotInfo s = view.snapshot(id).orElseThrow(() -> new SnapshotNotAvailableException(dataset, id, null));
    if (s.committedAt().isPresent() && s.stagedAt().isEmpty()) {
      // publishing it "again" would look like making it current, which it does not do
      throw new SnapshotStateException(dataset, id, s.state(), "snapshot " + id + " of dataset " + dataset
          + " was never staged (it was committed directly): there is nothing to publish; to make it current again,"
          + " roll back to it");
    }
    if (s.committedAt().isPresent()) {
      if (group != null && !s.group().equals(Optional.of(group.id()))) {
        // a group's member must become current with the others, not have been published apart
        throw new SnapshotStateException(dataset, id, s.state(), "staged snapshot " + id + " of dataset " + dataset
            + " was published already, " + s.group().map(g -> "with group " + g).orElse("alone")
            + ": it cannot be published with group " + group.id() + ", and so nothing of the group is");
      }
      return new Publication.Published(s, List.of(), false); // published already: once is all
    }
    if (s.discarded()) {
      throw new SnapshotStateException(dataset, id, s.state(), "staged snapshot " + id + " of dataset " + dataset
          + " was discarded; it can no longer be published");
    }
    if (s.state() != SnapshotState.STAGED) {
      throw new SnapshotNotAvailableException(dataset, id, s.state());
    }
    Optional<SnapshotId> current = view.current();
    if (!replace && !current.equals(s.parentId())) {
      throw new StagedBaseMovedException(dataset, id, s.parentId(), current);
    }
    // replacing: its parent becomes the snapshot it replaced, which a group rollback goes back to
    SnapshotInfo committed = s.toBuilder().state(SnapshotState.COMMITTED).committedAt(view.commitTime())
        .parentId(current.orElse(null))
        .group(group == null ? null : group.id(), group == null ? java.util.Set.of() : group.members()).build();
    view.putSnapshot(committed);
    if (!current.equals(Optional.of(id))) {
      view.moveCurrent(id, group == null ? "publish staged" : group.reason("publish"));
    }
    s.sourceKey().ifPresent(key -> view.putSource(key, id));
    List<SnapshotInfo> expired = Retention.expirable(view, retention, view.commitTime(), id);
    Retention.expire(view, expired);
    return new Publication.Published(committed, expired, false);
  }

  /**
   * The rule that discards a STAGED snapshot: it is expired, so that cleanup deletes its rows once
   * its readers are gone. Discarding one discarded already changes nothing; one published or never
   * staged is refused.
   */
  static SnapshotInfo discard(DatasetId dataset, MetadataView view, SnapshotId id) {
    SnapshotInfo s = view.snapshot(id).orElseThrow(() -> new SnapshotNotAvailableException(dataset, id, null));
    if (s.discarded()) {
      return s;
    }
    if (s.state() != SnapshotState.STAGED) {
      throw new SnapshotStateException(dataset, id, s.state(), "cannot discard snapshot " + id + " of dataset " + dataset + ": it is "
          + s.state() + (s.committedAt().isPresent() ? " (published; expire it instead)" : "")
          + "; only a STAGED snapshot can be discarded");
    }
    SnapshotInfo discarded = s.toBuilder().state(SnapshotState.EXPIRED).build();
    view.putSnapshot(discarded);
    return discarded;
  }

  /** Discards every stage staged before {@code cutoff} (past {@code staged.max.age}); returns them. */
  static List<SnapshotInfo> discardStagedBefore(DatasetId dataset, MetadataView view, java.time.Instant cutoff) {
    List<SnapshotInfo> out = new java.util.ArrayList<>();
    for (SnapshotInfo s : view.staged()) {
      if (s.state() == SnapshotState.STAGED && s.stagedAt().map(t -> t.isBefore(cutoff)).orElse(false)) {
        out.add(discard(dataset, view, s.id()));
      }
    }
    return out;
  }

  /**
   * A writer member begun again under the run id of {@code id}: the group must have published it
   * already (its first attempt's outcome was unknown), or nothing of the group is published now.
   */
  Publication.Published alreadyOfGroup(MetadataView view) {
    SnapshotInfo s = view.snapshot(id).orElseThrow(() -> new SnapshotNotAvailableException(dataset, id, null));
    if (s.committedAt().isPresent() && s.group().equals(Optional.of(group.id()))) {
      return new Publication.Published(s, List.of(), false);
    }
    throw new SnapshotStateException(dataset, id, s.state(), "the run of snapshot " + id + " of dataset " + dataset
        + " is " + s.state() + (s.group().map(g -> " with group " + g).orElse("")) + ", not published with group "
        + group.id() + ": nothing of the group is published");
  }
}
