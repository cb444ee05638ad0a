package io.snapds.dataset;

import java.util.Optional;

/**
 * A staged snapshot cannot be published as it is: the snapshot current when it was staged (its
 * base) is no longer current, so publishing it would silently drop what was published since.
 * Nothing changed; the stage is still there. Publish it with
 * {@link PublishMode#REPLACE_CURRENT} to replace whatever is current, build it
 * again from the new current snapshot, or discard it.
 */
public class StagedBaseMovedException extends SnapshotDatasetException {
  private final SnapshotId staged;
  private final SnapshotId base;
  private final SnapshotId current;

  public StagedBaseMovedException(DatasetId dataset, SnapshotId staged, Optional<SnapshotId> base,
      Optional<SnapshotId> current) {
    super("cannot publish staged snapshot " + staged + " of dataset " + dataset + ": it was staged on "
        + base.map(b -> "snapshot " + b).orElse("no current snapshot") + ", and the current snapshot is now "
        + current.map(SnapshotId::toString).orElse("none") + "; publish it replacing the current one, build it again,"
        + " or discard it");
    this.staged = staged;
    this.base = base.orElse(null);
    this.current = current.orElse(null);
  }

  public SnapshotId staged() {
    return staged;
  }

  /** The snapshot current when it was staged; empty if there was none. */
  public Optional<SnapshotId> base() {
    return Optional.ofNullable(base);
  }

  /** The snapshot current now; empty if there is none. */
  public Optional<SnapshotId> current() {
    return Optional.ofNullable(current);
  }
}
