package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.store.DatasetState;
import io.snapds.dataset.store.MetadataStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

final class ExpireSnapshotsImpl implements ExpireSnapshots {
  private final SnapshotDataset dataset;
  private final MetadataStore store;
  private final Clock clock;
  private final Set<SnapshotId> ids = new LinkedHashSet<>();
  private Instant olderThan;
  private Integer retainLast;

  ExpireSnapshotsImpl(SnapshotDataset dataset, MetadataStore store, Clock clock) {
    this.dataset = dataset;
    this.store = store;
    this.clock = clock;
  }

  @Override
  public ExpireSnapshots expire(SnapshotId id) {
    ids.add(checkNotNull(id, "snapshot id"));
    return this;
  }

  @Override
  public ExpireSnapshots olderThan(Instant time) {
    this.olderThan = checkNotNull(time, "time");
    return this;
  }

  @Override
  public ExpireSnapshots retainLast(int n) {
    checkArgument(n >= 1, "retainLast must be >= 1, got %s", n);
    this.retainLast = n;
    return this;
  }

  @Override
  public List<SnapshotInfo> apply() {
    return select(store.readLatest());
  }

  @Override
  public List<SnapshotInfo> commit() {
    List<SnapshotInfo> expired = store.update("expire snapshots", (base, tx) -> {
      List<SnapshotInfo> selected = select(base);
      return new MetadataStore.Change<>(
          selected.isEmpty() ? base : Retention.expire(base, selected), selected);
    });
    dataset.fenceForCleanup(expired);
    return expired;
  }

  private List<SnapshotInfo> select(DatasetState state) {
    List<SnapshotInfo> out = new ArrayList<>();
    for (SnapshotId id : ids) {
      SnapshotInfo s = state.snapshot(id)
          .orElseThrow(() -> new SnapshotNotAvailableException(dataset.id(), id, null));
      checkArgument(s.state() == SnapshotState.COMMITTED, "cannot expire snapshot %s: it is %s", id, s.state());
      checkArgument(!state.current().map(id::equals).orElse(false),
          "cannot expire snapshot %s: it is the current snapshot (roll back or publish first)", id);
      checkArgument(s.tags().isEmpty(), "cannot expire snapshot %s: it is tagged %s (untag it first)", id, s.tags());
      out.add(s);
    }
    if (olderThan != null || retainLast != null) {
      List<SnapshotInfo> retained = state.retained();
      int keep = retainLast == null ? 0 : retainLast;
      for (int i = keep; i < retained.size(); i++) {
        SnapshotInfo s = retained.get(i);
        boolean old = olderThan == null
            || s.committedAt().map(t -> t.isBefore(olderThan)).orElse(false);
        if (old && Retention.isExpirable(state, s) && !out.contains(s)) {
          out.add(s);
        }
      }
    }
    return out;
  }
}
