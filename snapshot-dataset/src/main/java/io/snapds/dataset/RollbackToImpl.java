package io.snapds.dataset;

import io.snapds.dataset.store.MetadataView;
import io.snapds.dataset.store.MetadataStore;

final class RollbackToImpl implements RollbackTo {
  private final DatasetId dataset;
  private final MetadataStore store;
  private final SnapshotId target;

  RollbackToImpl(DatasetId dataset, MetadataStore store, SnapshotId target) {
    this.dataset = dataset;
    this.store = store;
    this.target = target;
  }

  @Override
  public SnapshotInfo apply() {
    return store.read(this::validate);
  }

  @Override
  public SnapshotInfo commit() {
    return store.update("rollback to " + target, view -> {
      SnapshotInfo s = validate(view);
      if (!view.current().map(target::equals).orElse(false)) {
        view.moveCurrent(target, "rollback");
      }
      return s;
    });
  }

  private SnapshotInfo validate(MetadataView state) {
    SnapshotInfo s = state.snapshot(target)
        .orElseThrow(() -> new SnapshotNotAvailableException(dataset, target, null));
    if (!s.state().isReadable()) {
      throw new SnapshotNotAvailableException(dataset, target, s.state());
    }
    return s;
  }
}
