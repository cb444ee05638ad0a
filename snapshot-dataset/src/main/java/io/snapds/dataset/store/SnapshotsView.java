package io.snapds.dataset.store;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The snapshot records and the indexes that follow them (rows {@code n}, {@code c}, {@code b}, {@code g}, {@code d}, {@code t}). */
public interface SnapshotsView {
  /** The record of one snapshot; empty if none was ever recorded or it is past the horizon. */
  Optional<SnapshotInfo> snapshot(SnapshotId id);

  /**
   * The records of those of {@code ids} that have one, in their order, read in one call however
   * many there are (a commit racing others must not read them one by one: its window would grow
   * with their number).
   */
  List<SnapshotInfo> snapshots(Collection<SnapshotId> ids);

  /** Every snapshot record the horizon keeps, newest first. */
  List<SnapshotInfo> snapshots();

  /** Committed snapshots, newest first. */
  List<SnapshotInfo> retained();

  /** Snapshots STAGED and waiting for an audit, oldest first. */
  List<SnapshotInfo> staged();

  /** Snapshots still BUILDING, oldest first. */
  List<SnapshotInfo> building();

  /** Expired and aborted snapshots whose rows are not yet deleted, oldest first. */
  List<SnapshotInfo> awaitingCleanup();

  /** The newest cleaned snapshot whose record the horizon keeps (the {@code d} index's last row), if any. */
  Optional<SnapshotId> newestCleaned();

  Optional<SnapshotInfo> tagged(String tag);

  /** Records a snapshot's new record; the indexes (retained, building, cleanup, tags) follow it. */
  void putSnapshot(SnapshotInfo info);
}
