package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.store.MetadataView;
import io.snapds.dataset.store.MetadataStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

final class ExpireSnapshotsImpl implements ExpireSnapshots {
  private final DatasetId dataset;
  private final MetadataStore store;
  private final Consumer<List<SnapshotInfo>> afterExpiry;
  private final Set<SnapshotId> ids = new LinkedHashSet<>();
  private Instant olderThan;
  private Integer retainLast;

  /** @param afterExpiry called with what was expired, after the commit (cleanup fences) */
  ExpireSnapshotsImpl(DatasetId dataset, MetadataStore store, Consumer<List<SnapshotInfo>> afterExpiry) {
    this.dataset = dataset;
    this.store = store;
    this.afterExpiry = afterExpiry;
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
    return store.read(this::select);
  }

  @Override
  public List<SnapshotInfo> commit() {
    List<SnapshotInfo> expired = store.update("expire snapshots", view -> {
      List<SnapshotInfo> selected = select(view);
      Retention.expire(view, selected);
      return selected;
    });
    afterExpiry.accept(expired);
    return expired;
  }

  private List<SnapshotInfo> select(MetadataView state) {
    List<SnapshotInfo> out = new ArrayList<>();
    Set<SnapshotId> chosen = new HashSet<>();
    for (SnapshotId id : ids) {
      SnapshotInfo s = state.snapshot(id)
          .orElseThrow(() -> new SnapshotNotAvailableException(dataset, id, null));
      checkArgument(s.state() == SnapshotState.COMMITTED, "cannot expire snapshot %s: it is %s", id, s.state());
      checkArgument(!state.current().map(id::equals).orElse(false),
          "cannot expire snapshot %s: it is the current snapshot (roll back or publish first)", id);
      checkArgument(s.tags().isEmpty(), "cannot expire snapshot %s: it is tagged %s (untag it first)", id, s.tags());
      out.add(s);
      chosen.add(id);
    }
    if (olderThan != null || retainLast != null) {
      List<SnapshotInfo> retained = state.retained();
      int keep = retainLast == null ? 0 : retainLast;
      for (int i = keep; i < retained.size(); i++) {
        SnapshotInfo s = retained.get(i);
        boolean old = olderThan == null
            || s.committedAt().map(t -> t.isBefore(olderThan)).orElse(false);
        if (old && Retention.isExpirable(state, s) && !chosen.contains(s.id())) {
          out.add(s);
        }
      }
    }
    return out;
  }
}
