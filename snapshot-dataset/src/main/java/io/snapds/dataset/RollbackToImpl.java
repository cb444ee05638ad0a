package io.snapds.dataset;

import io.snapds.dataset.store.MetadataView;

final class RollbackToImpl extends MetadataUpdate<SnapshotInfo> implements RollbackTo {
  private final SnapshotId target;

  RollbackToImpl(OperationsContext ops, SnapshotId target) {
    super(ops);
    this.target = target;
  }

  @Override
  String describe() {
    return "rollback to " + target;
  }

  @Override
  SnapshotInfo validate(MetadataView state) {
    return requireReadable(state, target);
  }

  @Override
  void write(MetadataView view, SnapshotInfo validated) {
    if (!view.current().map(target::equals).orElse(false)) {
      view.moveCurrent(target, "rollback");
    }
  }
}
