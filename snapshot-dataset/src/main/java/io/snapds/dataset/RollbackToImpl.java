package io.snapds.dataset;

import io.snapds.dataset.store.DatasetState;
import io.snapds.dataset.store.MetadataStore;
import java.time.Clock;

final class RollbackToImpl implements RollbackTo {
  private final DatasetId dataset;
  private final MetadataStore store;
  private final Clock clock;
  private final SnapshotId target;

  RollbackToImpl(DatasetId dataset, MetadataStore store, Clock clock, SnapshotId target) {
    this.dataset = dataset;
    this.store = store;
    this.clock = clock;
    this.target = target;
  }

  @Override
  public SnapshotInfo apply() {
    return validate(store.readLatest());
  }

  @Override
  public SnapshotInfo commit() {
    return store.update("rollback to " + target, (base, tx) -> {
      SnapshotInfo s = validate(base);
      if (base.current().map(target::equals).orElse(false)) {
        return new MetadataStore.Change<>(base, s);
      }
      DatasetState updated = base.withCurrent(target, new HistoryEntry(clock.instant(), target, "rollback"));
      return new MetadataStore.Change<>(updated, s);
    });
  }

  private SnapshotInfo validate(DatasetState state) {
    SnapshotInfo s = state.snapshot(target)
        .orElseThrow(() -> new SnapshotNotAvailableException(dataset, target, null));
    if (!s.state().isReadable()) {
      throw new SnapshotNotAvailableException(dataset, target, s.state());
    }
    return s;
  }
}
