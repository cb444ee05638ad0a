package io.snapds.hive;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotNotAvailableException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.Timestamp;

/**
 * Which snapshot a scan reads: the current one, one id, or the one current at a time. Immutable.
 * {@link #fromSettings} reads the table property first, then the session setting
 * ({@code snapds.snapshot.id}, {@code snapds.snapshot.asof}); with neither, the current snapshot.
 */
public final class SnapshotSelector {
  private static final SnapshotSelector CURRENT = new SnapshotSelector(null, null);

  private final SnapshotId id;
  private final Instant asOf;

  private SnapshotSelector(SnapshotId id, Instant asOf) {
    this.id = id;
    this.asOf = asOf;
  }

  public static SnapshotSelector current() {
    return CURRENT;
  }

  public static SnapshotSelector id(SnapshotId id) {
    return new SnapshotSelector(checkNotNull(id, "snapshot id"), null);
  }

  public static SnapshotSelector asOf(Instant time) {
    return new SnapshotSelector(null, checkNotNull(time, "time"));
  }

  /**
   * The selection a table's properties or, failing those, the session's settings make.
   *
   * @throws IllegalArgumentException naming the setting whose value does not parse, or when both
   *     an id and a time are given at the same level
   */
  public static SnapshotSelector fromSettings(Properties table, Configuration session) {
    SnapshotSelector fromTable = parse("table property", table.getProperty(HiveTableProperties.SNAPSHOT_ID),
        table.getProperty(HiveTableProperties.SNAPSHOT_AS_OF));
    if (fromTable != CURRENT) {
      return fromTable;
    }
    return parse("setting", session.get(HiveTableProperties.SNAPSHOT_ID), session.get(HiveTableProperties.SNAPSHOT_AS_OF));
  }

  private static SnapshotSelector parse(String level, String id, String asOf) {
    boolean hasId = id != null && !id.isBlank();
    boolean hasAsOf = asOf != null && !asOf.isBlank();
    checkArgument(!(hasId && hasAsOf), "%s %s=%s and %s=%s are both set; set only one", level,
        HiveTableProperties.SNAPSHOT_ID, id, HiveTableProperties.SNAPSHOT_AS_OF, asOf);
    if (hasId) {
      try {
        return id(SnapshotId.parse(id));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(level + " " + HiveTableProperties.SNAPSHOT_ID + ": " + e.getMessage(), e);
      }
    }
    return hasAsOf ? asOf(parseTime(level + " " + HiveTableProperties.SNAPSHOT_AS_OF, asOf)) : CURRENT;
  }

  /**
   * Parses epoch milliseconds, an ISO-8601 instant ({@code 2026-11-30T08:00:00Z}) or a Hive
   * timestamp ({@code 2026-11-30 08:00:00}, read as UTC).
   */
  static Instant parseTime(String what, String text) {
    String t = text.trim();
    if (t.matches("\\d+")) {
      return Instant.ofEpochMilli(Long.parseLong(t));
    }
    try {
      return Instant.parse(t);
    } catch (DateTimeParseException e) {
      try {
        return Instant.ofEpochMilli(Timestamp.valueOf(t).toEpochMilli());
      } catch (IllegalArgumentException e2) {
        throw new IllegalArgumentException(what + " '" + text + "' is not a time: use epoch milliseconds, "
            + "an ISO-8601 instant like 2026-11-30T08:00:00Z or 'yyyy-MM-dd HH:mm:ss' (UTC)", e2);
      }
    }
  }

  /**
   * The snapshot this selection names in {@code dataset}, checked to be readable now.
   *
   * @throws SnapshotNotAvailableException if there is no such snapshot, it is not committed any
   *     more (expired), or nothing was current at the time asked for
   */
  public SnapshotId resolve(SnapshotDataset dataset) {
    if (id != null) {
      return dataset.readSnapshot(id).snapshotId();
    }
    if (asOf != null) {
      return dataset.readAsOf(asOf).snapshotId();
    }
    return dataset.readCurrent().snapshotId();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SnapshotSelector other && Objects.equals(id, other.id) && Objects.equals(asOf, other.asOf);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, asOf);
  }

  @Override
  public String toString() {
    return id != null ? "snapshot " + id : asOf != null ? "as of " + asOf : "current snapshot";
  }
}
