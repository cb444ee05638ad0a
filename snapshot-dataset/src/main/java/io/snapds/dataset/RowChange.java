package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Optional;

/**
 * One row that differs between two snapshots, as a {@link DiffScanner} returns it: its key, what
 * happened to it, and the row as each snapshot holds it (projected onto the diff's columns).
 * Immutable.
 */
public final class RowChange {
  /** What happened to a row between the older ("from") and the newer ("to") snapshot. */
  public enum Kind {
    /** In "to" only. */
    ADDED,
    /** In "from" only. */
    REMOVED,
    /** In both, with different cells (on the diff's columns). */
    CHANGED
  }

  private final Kind kind;
  private final SnapshotRow before;
  private final SnapshotRow after;

  private RowChange(Kind kind, SnapshotRow before, SnapshotRow after) {
    this.kind = kind;
    this.before = before;
    this.after = after;
  }

  public static RowChange added(SnapshotRow after) {
    return new RowChange(Kind.ADDED, null, checkNotNull(after, "after"));
  }

  public static RowChange removed(SnapshotRow before) {
    return new RowChange(Kind.REMOVED, checkNotNull(before, "before"), null);
  }

  /** @throws IllegalArgumentException if the two rows have different keys */
  public static RowChange changed(SnapshotRow before, SnapshotRow after) {
    checkArgument(java.util.Arrays.equals(checkNotNull(before, "before").key(), checkNotNull(after, "after").key()),
        "a changed row has one key, got %s and %s", before.keyAsString(), after.keyAsString());
    return new RowChange(Kind.CHANGED, before, after);
  }

  public Kind kind() {
    return kind;
  }

  /** The row's user key (a copy). */
  public byte[] key() {
    return (after != null ? after : before).key();
  }

  public String keyAsString() {
    return (after != null ? after : before).keyAsString();
  }

  /** The row in the "from" snapshot; empty for {@link Kind#ADDED}. */
  public Optional<SnapshotRow> before() {
    return Optional.ofNullable(before);
  }

  /** The row in the "to" snapshot; empty for {@link Kind#REMOVED}. */
  public Optional<SnapshotRow> after() {
    return Optional.ofNullable(after);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowChange other && kind == other.kind && java.util.Objects.equals(before, other.before)
        && java.util.Objects.equals(after, other.after);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(kind, before, after);
  }

  @Override
  public String toString() {
    return kind + " " + keyAsString() + (before != null ? " before " + before : "")
        + (after != null ? " after " + after : "");
  }
}
