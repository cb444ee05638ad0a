package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.store.MetadataView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

final class ExpireSnapshotsImpl extends MetadataUpdate<List<SnapshotInfo>> implements ExpireSnapshots {
  private final Set<SnapshotId> ids = new LinkedHashSet<>();
  private Instant olderThan;
  private Integer retainLast;

  ExpireSnapshotsImpl(OperationsContext ops) {
    super(ops);
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
  String describe() {
    return "expire snapshots";
  }

  @Override
  void write(MetadataView view, List<SnapshotInfo> selected) {
    Retention.expire(view, selected);
  }

  /** What was expired gets its cleanup fence in a transaction that saw the expiry. */
  @Override
  void afterCommit(List<SnapshotInfo> expired) {
    Cleanup.fenceAfter(ops, expired);
  }

  /** The snapshots to expire: those named, and those the age and count limits select. */
  @Override
  List<SnapshotInfo> validate(MetadataView state) {
    List<SnapshotInfo> out = new ArrayList<>();
    Set<SnapshotId> chosen = new HashSet<>();
    for (SnapshotId id : ids) {
      SnapshotInfo s = requireRecorded(state, id);
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
