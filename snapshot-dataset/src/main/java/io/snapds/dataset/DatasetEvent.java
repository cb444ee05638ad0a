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
 * @param schemaVersion version of the stored event schema ({@link #SCHEMA_VERSION} when written)
 * @param snapshotId the snapshot the change is about (for ROLLED_BACK: the snapshot made current)
 * @param rowCount that snapshot's row count when the event was written
 */
public record DatasetEvent(int schemaVersion, Type type, DatasetId dataset, long sequence, SnapshotId snapshotId,
    Optional<String> runId, Optional<String> sourceKey, long rowCount, Instant commitTime) {
  /** The event schema this version of the library writes. */
  public static final int SCHEMA_VERSION = 1;

  /** What changed. */
  public enum Type {
    /** A snapshot was committed and made current. */
    PUBLISHED,
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
    /** The dataset's metadata was upgraded to the current format. */
    UPGRADED
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
    checkNotNull(snapshotId, "snapshotId");
    checkNotNull(runId, "runId");
    checkNotNull(sourceKey, "sourceKey");
    checkNotNull(commitTime, "commitTime");
  }
}
