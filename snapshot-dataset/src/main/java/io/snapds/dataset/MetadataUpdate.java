package io.snapds.dataset;

import io.snapds.dataset.store.MetadataView;

/**
 * The shared template of the metadata operations ({@link ExpireSnapshotsImpl},
 * {@link RollbackToImpl}, {@link ManageTagsImpl}): {@link #apply()} validates against the latest
 * metadata and writes nothing; {@link #commit()} validates and writes in one metadata transaction,
 * which the store retries, validating again, when it loses a race to another commit
 * ({@code commit.retries}); {@link #afterCommit} runs once it committed.
 *
 * @param <T> what the change produces
 */
abstract class MetadataUpdate<T> implements PendingUpdate<T> {
  final OperationsContext ops;

  MetadataUpdate(OperationsContext ops) {
    this.ops = ops;
  }

  /** What the change would produce against {@code view}; throws if it is not valid there. */
  abstract T validate(MetadataView view);

  /** Writes {@code change}, which {@link #validate} just returned, into {@code view}. */
  abstract void write(MetadataView view, T change);

  /** How the commit is named in logs and errors. */
  abstract String describe();

  /** After the commit: what must follow it in another transaction (nothing unless overridden). */
  void afterCommit(T committed) {}

  @Override
  public final T apply() {
    return ops.store().read(this::validate);
  }

  @Override
  public final T commit() {
    T committed = ops.store().update(describe(), view -> {
      T change = validate(view);
      write(view, change);
      return change;
    });
    afterCommit(committed);
    return committed;
  }

  /** The record of {@code snapshot}, as the metadata operations require one. */
  final SnapshotInfo requireRecorded(MetadataView view, SnapshotId snapshot) {
    return view.snapshot(snapshot).orElseThrow(() -> new SnapshotNotAvailableException(ops.id(), snapshot, null));
  }

  /**
   * The record of {@code snapshot}, which must be published and retained (COMMITTED): a staged
   * one becomes current only through {@link SnapshotDataset#publish}.
   */
  final SnapshotInfo requireReadable(MetadataView view, SnapshotId snapshot) {
    SnapshotInfo s = requireRecorded(view, snapshot);
    if (s.state() != SnapshotState.COMMITTED) {
      throw new SnapshotNotAvailableException(ops.id(), snapshot, s.state());
    }
    return s;
  }
}
