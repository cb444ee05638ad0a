package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Instant;
import java.util.Optional;

/**
 * One change of a dataset's state, as the transactional outbox recorded it: written in the same
 * metadata transaction as the change, numbered without gaps per dataset ({@link #sequence()}
 * 1, 2, 3, ... in commit order). Read with {@link SnapshotDataset#events(long, int)}; the stored
 * form is versioned JSON (see docs/events.md).
 *
 * <p>Two kinds: <em>snapshot events</em> (every type but CREATED, TRUNCATED, UPGRADED and DROPPED)
 * are about one snapshot and always carry it; <em>dataset events</em> ({@link Type#isDatasetEvent()})
 * are about the dataset and carry its current snapshot as context when it has one (CREATED and
 * TRUNCATED never do).
 *
 * @param schemaVersion version of the stored event schema ({@link #SCHEMA_VERSION} when written;
 *     events of version 1 are read as they were: a snapshot event each)
 * @param snapshot the snapshot the change is about (for ROLLED_BACK: the snapshot made current);
 *     for a dataset event the current snapshot, if any
 * @param rowCount that snapshot's row count when the event was written (0 without a snapshot)
 */
public record DatasetEvent(int schemaVersion, Type type, DatasetId dataset, long sequence,
    Optional<SnapshotId> snapshot, Optional<String> runId, Optional<String> sourceKey, long rowCount,
    Instant commitTime) {
  /**
   * The event schema this version of the library writes: 2 (version 1 had no dataset events and
   * a snapshot in every event; see docs/events.md for what changed).
   */
  public static final int SCHEMA_VERSION = 2;

  /** What changed. */
  public enum Type {
    /** A snapshot was committed and made current (directly, from a stage, or with a publish group). */
    PUBLISHED,
    /** A snapshot was staged: complete, readable by id, waiting for an audit to publish or discard it. */
    STAGED,
    /** A staged snapshot was discarded (by an audit, by hand, or past {@code staged.max.age}); it was never current. */
    DISCARDED,
    /** The current pointer was moved back to an older snapshot. */
    ROLLED_BACK,
    /** A committed snapshot was expired by retention or {@code expireSnapshots()}. */
    EXPIRED,
    /** A BUILDING snapshot was aborted (by its writer or as a dead writer's). */
    ABORTED,
    /** The set of tags of a snapshot changed. */
    TAGGED,
    /** Cleanup deleted the rows of an expired or aborted snapshot. */
    CLEANED,
    /** The dataset's metadata was upgraded to the current format (a dataset event). */
    UPGRADED,
    /** The dataset was created: always its first event, sequence 1 (a dataset event). */
    CREATED,
    /**
     * The dataset was truncated: every snapshot, tag and history entry before it is gone and it
     * has no current snapshot (a dataset event, without a snapshot).
     */
    TRUNCATED,
    /**
     * The dataset was dropped: always its last event; its tables are deleted once every recorded
     * delivered position reached it (a dataset event).
     */
    DROPPED;

    /** True for the events about the dataset rather than one snapshot: CREATED, TRUNCATED, UPGRADED, DROPPED. */
    public boolean isDatasetEvent() {
      return this == CREATED || this == TRUNCATED || this == UPGRADED || this == DROPPED;
    }
  }

  /**
   * The snapshot of a snapshot event.
   *
   * @throws IllegalStateException for a dataset event without a snapshot (CREATED, or UPGRADED or
   *     DROPPED of a dataset without a current snapshot); use {@link #snapshot()} for those
   */
  public SnapshotId snapshotId() {
    return snapshot.orElseThrow(() -> new IllegalStateException(
        "event " + sequence + " (" + type + ") of " + dataset + " is about no snapshot"));
  }

  /** This event as one line of JSON, the form the outbox stores and sinks send (docs/events.md). */
  public String toJson() {
    return io.snapds.dataset.store.EventCodec.toJson(this);
  }

  /**
   * An event from its JSON form ({@link #toJson()}); fields a later schema version adds are ignored.
   *
   * @throws IllegalArgumentException naming the text when it is not an event of a known schema
   */
  public static DatasetEvent fromJson(String json) {
    return io.snapds.dataset.store.EventCodec.fromJson(json);
  }

  public DatasetEvent {
    checkArgument(schemaVersion >= 1, "event schema version must be >= 1, got %s", schemaVersion);
    checkNotNull(type, "type");
    checkNotNull(dataset, "dataset");
    checkArgument(sequence >= 1, "event sequence must be >= 1, got %s", sequence);
    checkNotNull(snapshot, "snapshot");
    checkArgument(snapshot.isPresent() || type.isDatasetEvent(), "a %s event needs a snapshot (event %s of %s)",
        type, sequence, dataset);
    checkNotNull(runId, "runId");
    checkNotNull(sourceKey, "sourceKey");
    checkNotNull(commitTime, "commitTime");
  }
}
