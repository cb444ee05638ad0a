package io.snapds.hive;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.Timestamp;

/**
 * Reads which snapshot a table reference selects from its settings: the table property first,
 * then the session setting ({@code snapds.snapshot.id}, {@code snapds.snapshot.tag},
 * {@code snapds.snapshot.asof}, at most one of them per level); with none, the current snapshot.
 */
final class SnapshotSettings {
  private SnapshotSettings() {}

  /**
   * @throws IllegalArgumentException naming the setting whose value does not parse, or the
   *     settings when more than one of id, tag and time is given at the same level
   */
  static SnapshotSelector fromSettings(Properties table, Configuration session) {
    SnapshotSelector fromTable = parse("table property", table::getProperty);
    if (!fromTable.equals(SnapshotSelector.current())) {
      return fromTable;
    }
    return parse("setting", session::get);
  }

  private static SnapshotSelector parse(String level, UnaryOperator<String> settings) {
    Map<String, String> given = new LinkedHashMap<>();
    for (String key : new String[] {HiveTableProperties.SNAPSHOT_ID, HiveTableProperties.SNAPSHOT_TAG,
        HiveTableProperties.SNAPSHOT_AS_OF}) {
      String value = settings.apply(key);
      if (value != null && !value.isBlank()) {
        given.put(key, value);
      }
    }
    checkArgument(given.size() <= 1, "%s %s are %s set; set only one", level,
        given.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" and ")),
        given.size() == 2 ? "both" : "all");
    String id = given.get(HiveTableProperties.SNAPSHOT_ID);
    String tag = given.get(HiveTableProperties.SNAPSHOT_TAG);
    String asOf = given.get(HiveTableProperties.SNAPSHOT_AS_OF);
    if (tag != null) {
      return SnapshotSelector.tag(tag.trim());
    }
    if (id != null) {
      try {
        return SnapshotSelector.snapshot(SnapshotId.parse(id));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(level + " " + HiveTableProperties.SNAPSHOT_ID + ": " + e.getMessage(), e);
      }
    }
    return asOf != null ? SnapshotSelector.asOf(parseTime(level + " " + HiveTableProperties.SNAPSHOT_AS_OF, asOf))
        : SnapshotSelector.current();
  }

  /**
   * Whether an {@code INSERT OVERWRITE} stages its snapshot ({@link HiveTableProperties#WRITE_STAGE}):
   * the table property first, then the session setting; false when neither is set.
   *
   * @throws IllegalArgumentException naming the setting and its value when it is neither true nor false
   */
  static boolean stage(UnaryOperator<String> table, Configuration session) {
    String fromTable = table.apply(HiveTableProperties.WRITE_STAGE);
    if (fromTable != null && !fromTable.isBlank()) {
      return parseBoolean("table property", fromTable);
    }
    String fromSession = session.get(HiveTableProperties.WRITE_STAGE);
    return fromSession != null && !fromSession.isBlank() && parseBoolean("setting", fromSession);
  }

  private static boolean parseBoolean(String level, String value) {
    String v = value.trim();
    checkArgument(v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false"), "%s %s must be true or false, got '%s'",
        level, HiveTableProperties.WRITE_STAGE, value);
    return Boolean.parseBoolean(v);
  }

  /** The prefix of a tag in a table reference: {@code db.table.tag_<name>}, as Hive writes Iceberg's refs. */
  static final String TAG_REF_PREFIX = "tag_";

  /**
   * The selection of a table reference's snapshot ref, {@code db.table.tag_<name>} (Hive's syntax
   * for Iceberg's refs, {@code hive.io.snapshot.ref} in a job): the tag {@code <name>}.
   *
   * @throws IllegalArgumentException naming the reference when it is not a tag (a branch, or
   *     anything else: a snapshot dataset has tags and no branches or metadata tables)
   */
  static SnapshotSelector fromRef(String table, String ref) {
    if (ref.startsWith(TAG_REF_PREFIX) && ref.length() > TAG_REF_PREFIX.length()) {
      return SnapshotSelector.tag(ref.substring(TAG_REF_PREFIX.length()));
    }
    throw new IllegalArgumentException("table reference " + table + "." + ref + ": a snapshot dataset's table "
        + "has tags, read one as " + table + "." + TAG_REF_PREFIX + "<name> (or set "
        + HiveTableProperties.SNAPSHOT_TAG + "); it has no branches or metadata tables");
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
