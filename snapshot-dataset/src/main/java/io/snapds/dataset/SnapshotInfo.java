package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What the metadata table records of one snapshot: its state, times, size, who wrote it and why.
 * Immutable; change it with {@link #toBuilder()}.
 */
public final class SnapshotInfo {
  private final SnapshotId id;
  private final SnapshotState state;
  private final Instant createdAt;
  private final Instant committedAt;
  private final long rowCount;
  private final long byteCount;
  private final String writer;
  private final String runId;
  private final String sourceKey;
  private final SnapshotId parentId;
  private final ImmutableSortedSet<String> tags;
  private final long fencingToken;
  private final long cleanupFence;
  private final Instant cleanedAt;
  private final ImmutableSortedMap<String, String> summary;
  private final Integer schemaId;
  private final long keyNumber;
  private final Instant stagedAt;
  private final String group;
  private final ImmutableSortedSet<String> groupMembers;

  private SnapshotInfo(Builder b) {
    this.id = checkNotNull(b.id, "id");
    this.state = checkNotNull(b.state, "state");
    this.createdAt = checkNotNull(b.createdAt, "createdAt");
    this.committedAt = b.committedAt;
    this.rowCount = b.rowCount;
    this.byteCount = b.byteCount;
    this.writer = b.writer == null ? "" : b.writer;
    this.runId = b.runId;
    this.sourceKey = b.sourceKey;
    this.parentId = b.parentId;
    this.tags = ImmutableSortedSet.copyOf(b.tags);
    this.fencingToken = b.fencingToken;
    this.cleanupFence = b.cleanupFence;
    this.cleanedAt = b.cleanedAt;
    this.summary = ImmutableSortedMap.copyOf(b.summary);
    this.schemaId = b.schemaId;
    this.keyNumber = b.keyNumber;
    this.stagedAt = b.stagedAt;
    this.group = b.group;
    this.groupMembers = ImmutableSortedSet.copyOf(b.groupMembers);
    checkArgument(keyNumber >= 0 && keyNumber <= SnapshotKeys.MAX_NUMBER,
        "key number must be between 0 and %s, got %s", SnapshotKeys.MAX_NUMBER, keyNumber);
  }

  /** For the metadata store, which builds the records it reads; users get them from the dataset. */
  @InterfaceAudience.Private
  public static Builder builder(SnapshotId id) {
    return new Builder(id);
  }

  public Builder toBuilder() {
    Builder b = new Builder(id);
    b.state = state;
    b.createdAt = createdAt;
    b.committedAt = committedAt;
    b.rowCount = rowCount;
    b.byteCount = byteCount;
    b.writer = writer;
    b.runId = runId;
    b.sourceKey = sourceKey;
    b.parentId = parentId;
    b.tags = tags;
    b.fencingToken = fencingToken;
    b.cleanupFence = cleanupFence;
    b.cleanedAt = cleanedAt;
    b.summary = summary;
    b.schemaId = schemaId;
    b.keyNumber = keyNumber;
    b.stagedAt = stagedAt;
    b.group = group;
    b.groupMembers = groupMembers;
    return b;
  }

  public SnapshotId id() {
    return id;
  }

  /** When its writer staged it for audit (see {@link SnapshotWriter#stage()}); empty if it was committed directly. */
  public Optional<Instant> stagedAt() {
    return Optional.ofNullable(stagedAt);
  }

  /**
   * A staged snapshot that was discarded (by hand, by an audit, or past {@code staged.max.age}):
   * staged, never published, expired. It was never current and never will be.
   */
  public boolean discarded() {
    return stagedAt != null && committedAt == null && state == SnapshotState.EXPIRED;
  }

  /** The publish group it was published with ({@link PublishGroup}), if any. */
  public Optional<String> group() {
    return Optional.ofNullable(group);
  }

  /** The datasets of its publish group ({@link DatasetId#toString()} of each), empty if it has none. */
  public Set<String> groupMembers() {
    return groupMembers;
  }

  public SnapshotState state() {
    return state;
  }

  public Instant createdAt() {
    return createdAt;
  }

  public Optional<Instant> committedAt() {
    return Optional.ofNullable(committedAt);
  }

  public long rowCount() {
    return rowCount;
  }

  /** Bytes of keys and values written, as the writer counted them. */
  public long byteCount() {
    return byteCount;
  }

  public String writer() {
    return writer;
  }

  public Optional<String> runId() {
    return Optional.ofNullable(runId);
  }

  public Optional<String> sourceKey() {
    return Optional.ofNullable(sourceKey);
  }

  /**
   * The id of the dataset schema this snapshot was written with ({@code io.snapds.dataset.schema});
   * empty for a snapshot of a schema-less dataset.
   */
  public Optional<Integer> schemaId() {
    return Optional.ofNullable(schemaId);
  }

  /** The snapshot that was current when this one was published, if any. */
  public Optional<SnapshotId> parentId() {
    return Optional.ofNullable(parentId);
  }

  public Set<String> tags() {
    return tags;
  }

  /** The writer lock's fencing token the writer held (0 when written without the lock). */
  public long fencingToken() {
    return fencingToken;
  }

  /**
   * For expired or aborted snapshots: a Tephra transaction id after which every new transaction
   * knows the snapshot is gone. Its rows may be deleted once no transaction older than this is
   * still in progress. 0 until set.
   */
  public long cleanupFence() {
    return cleanupFence;
  }

  /** When cleanup deleted the rows, if it has. */
  public Optional<Instant> cleanedAt() {
    return Optional.ofNullable(cleanedAt);
  }

  /**
   * The dataset-local number whose short encoding prefixes the snapshot's rows in the data table
   * (metadata format 3), given in the begin commit; 0 for a snapshot whose rows carry its 8-byte
   * id instead (every snapshot of a format-2 dataset, and those begun before its upgrade).
   */
  public long keyNumber() {
    return keyNumber;
  }

  /** Where the snapshot's rows are in the data table. */
  public SnapshotKeys keys() {
    return keyNumber == 0 ? SnapshotKeys.legacy(id) : SnapshotKeys.numbered(id, keyNumber);
  }

  /** Key-value facts the writer recorded at publish (for example a content checksum). */
  public Map<String, String> summary() {
    return summary;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SnapshotInfo other)) {
      return false;
    }
    return id.equals(other.id) && state == other.state && createdAt.equals(other.createdAt)
        && Objects.equals(committedAt, other.committedAt) && rowCount == other.rowCount
        && byteCount == other.byteCount && writer.equals(other.writer)
        && Objects.equals(runId, other.runId) && Objects.equals(sourceKey, other.sourceKey)
        && Objects.equals(parentId, other.parentId) && tags.equals(other.tags)
        && fencingToken == other.fencingToken && cleanupFence == other.cleanupFence
        && Objects.equals(cleanedAt, other.cleanedAt) && summary.equals(other.summary)
        && Objects.equals(schemaId, other.schemaId) && keyNumber == other.keyNumber
        && Objects.equals(stagedAt, other.stagedAt) && Objects.equals(group, other.group)
        && groupMembers.equals(other.groupMembers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, state, createdAt, committedAt, rowCount, byteCount, writer, runId,
        sourceKey, parentId, tags, fencingToken, cleanupFence, cleanedAt, summary, schemaId, keyNumber,
        stagedAt, group, groupMembers);
  }

  @Override
  public String toString() {
    return MoreObjects.toStringHelper("Snapshot").omitNullValues()
        .add("id", id).add("state", state).add("createdAt", createdAt).add("committedAt", committedAt)
        .add("rows", rowCount).add("bytes", byteCount).add("writer", writer).add("runId", runId)
        .add("sourceKey", sourceKey).add("parent", parentId).add("tags", tags.isEmpty() ? null : tags)
        .add("cleanedAt", cleanedAt).add("summary", summary.isEmpty() ? null : summary).add("schema", schemaId)
        .add("keyNumber", keyNumber == 0 ? null : keyNumber).add("stagedAt", stagedAt).add("group", group).toString();
  }

  /** Builds a {@link SnapshotInfo}; id, state and createdAt are required. */
  public static final class Builder {
    private final SnapshotId id;
    private SnapshotState state;
    private Instant createdAt;
    private Instant committedAt;
    private long rowCount;
    private long byteCount;
    private String writer;
    private String runId;
    private String sourceKey;
    private SnapshotId parentId;
    private Set<String> tags = Set.of();
    private long fencingToken;
    private long cleanupFence;
    private Instant cleanedAt;
    private Map<String, String> summary = Map.of();
    private Integer schemaId;
    private long keyNumber;
    private Instant stagedAt;
    private String group;
    private Set<String> groupMembers = Set.of();

    private Builder(SnapshotId id) {
      this.id = checkNotNull(id, "id");
    }

    public Builder state(SnapshotState state) {
      this.state = state;
      return this;
    }

    public Builder createdAt(Instant createdAt) {
      this.createdAt = createdAt;
      return this;
    }

    public Builder committedAt(Instant committedAt) {
      this.committedAt = committedAt;
      return this;
    }

    public Builder rowCount(long rowCount) {
      this.rowCount = rowCount;
      return this;
    }

    public Builder byteCount(long byteCount) {
      this.byteCount = byteCount;
      return this;
    }

    public Builder writer(String writer) {
      this.writer = writer;
      return this;
    }

    public Builder runId(String runId) {
      this.runId = runId;
      return this;
    }

    public Builder sourceKey(String sourceKey) {
      this.sourceKey = sourceKey;
      return this;
    }

    /** The dataset schema id the snapshot is written with; null for none. */
    public Builder schemaId(Integer schemaId) {
      this.schemaId = schemaId;
      return this;
    }

    public Builder parentId(SnapshotId parentId) {
      this.parentId = parentId;
      return this;
    }

    public Builder tags(Set<String> tags) {
      this.tags = checkNotNull(tags, "tags");
      return this;
    }

    public Builder fencingToken(long fencingToken) {
      this.fencingToken = fencingToken;
      return this;
    }

    public Builder cleanupFence(long cleanupFence) {
      this.cleanupFence = cleanupFence;
      return this;
    }

    public Builder cleanedAt(Instant cleanedAt) {
      this.cleanedAt = cleanedAt;
      return this;
    }

    public Builder summary(Map<String, String> summary) {
      this.summary = checkNotNull(summary, "summary");
      return this;
    }

    /** See {@link SnapshotInfo#keyNumber()}; 0 (the default) for the 8-byte id prefix. */
    public Builder keyNumber(long keyNumber) {
      this.keyNumber = keyNumber;
      return this;
    }

    public Builder stagedAt(Instant stagedAt) {
      this.stagedAt = stagedAt;
      return this;
    }

    public Builder group(String group) {
      this.group = group;
      return this;
    }

    /** The publish group and its member datasets; a null group clears both. */
    public Builder group(String group, Set<String> members) {
      this.group = group;
      this.groupMembers = group == null ? Set.of() : checkNotNull(members, "group members");
      return this;
    }

    public SnapshotInfo build() {
      return new SnapshotInfo(this);
    }
  }
}
