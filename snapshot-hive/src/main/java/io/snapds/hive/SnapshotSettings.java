package io.snapds.hive;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.Timestamp;

/**
 * Reads which snapshot a table reference selects from its settings: the table property first,
 * then the session setting ({@code snapds.snapshot.id}, {@code snapds.snapshot.asof}); with
 * neither, the current snapshot.
 */
final class SnapshotSettings {
  private SnapshotSettings() {}

  /**
   * @throws IllegalArgumentException naming the setting whose value does not parse, or when both
   *     an id and a time are given at the same level
   */
  static SnapshotSelector fromSettings(Properties table, Configuration session) {
    SnapshotSelector fromTable = parse("table property", table.getProperty(HiveTableProperties.SNAPSHOT_ID),
        table.getProperty(HiveTableProperties.SNAPSHOT_AS_OF));
    if (!fromTable.equals(SnapshotSelector.current())) {
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
        return SnapshotSelector.snapshot(SnapshotId.parse(id));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(level + " " + HiveTableProperties.SNAPSHOT_ID + ": " + e.getMessage(), e);
      }
    }
    return hasAsOf ? SnapshotSelector.asOf(parseTime(level + " " + HiveTableProperties.SNAPSHOT_AS_OF, asOf))
        : SnapshotSelector.current();
  }

  /**
   * Parses epoch milliseconds, an ISO-8601 instant ({@code 2026-11-30T08:00:00Z}) or a Hive
   * timestamp ({@code 2026-11-30 08:00:00}, read as UTC).
   *
   * @throws IllegalArgumentException naming {@code what} and the text
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
}
