package io.snapds.hive;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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

  /** The two snapshots a table reads the rows that differ between, from {@code snapds.diff.from}/{@code .to}. */
  record Diff(SnapshotSelector from, SnapshotSelector to) {}

  /**
   * The diff a table reads ({@link HiveTableProperties#DIFF_FROM}, {@link HiveTableProperties#DIFF_TO}),
   * each from the table property, else the session setting; empty when neither is set.
   *
   * @throws IllegalArgumentException naming the setting when only one of the two is set, or when
   *     a value is not a snapshot
   */
  static Optional<Diff> diff(UnaryOperator<String> table, Configuration session) {
    String[] levels = new String[2];
    String[] values = new String[2];
    String[] keys = {HiveTableProperties.DIFF_FROM, HiveTableProperties.DIFF_TO};
    for (int i = 0; i < 2; i++) {
      String t = table.apply(keys[i]);
      String s = session.get(keys[i]);
      if (t != null && !t.isBlank()) {
        levels[i] = "table property";
        values[i] = t;
      } else if (s != null && !s.isBlank()) {
        levels[i] = "setting";
        values[i] = s;
      }
    }
    if (values[0] == null && values[1] == null) {
      return Optional.empty();
    }
    for (int i = 0; i < 2; i++) {
      int other = 1 - i;
      checkArgument(values[i] != null, "%s %s=%s is set but %s is not: a diff needs both snapshots (%s and %s take"
          + " current, a snapshot id, tag:NAME or @TIME)", levels[other], keys[other], values[other], keys[i],
          keys[0], keys[1]);
    }
    return Optional.of(new Diff(selector(levels[0] + " " + keys[0], values[0]),
        selector(levels[1] + " " + keys[1], values[1])));
  }

  /** {@link #diff(UnaryOperator, Configuration)} of a table's properties. */
  static Optional<Diff> diff(Properties table, Configuration session) {
    return diff(table::getProperty, session);
  }

  /**
   * A snapshot as the diff settings name it: {@code current}, a snapshot id, {@code tag:NAME}, or
   * {@code @TIME} (epoch milliseconds, an ISO-8601 instant or {@code yyyy-MM-dd HH:mm:ss} in UTC):
   * the forms of {@code snapds diff}.
   *
   * @throws IllegalArgumentException naming {@code what} and the text when it is none of them
   */
  static SnapshotSelector selector(String what, String text) {
    String t = text.trim();
    if (t.equals("current")) {
      return SnapshotSelector.current();
    }
    if (t.startsWith("tag:") && t.length() > 4) {
      return SnapshotSelector.tag(t.substring(4));
    }
    if (t.startsWith("@")) {
      return SnapshotSelector.asOf(parseTime(what, t.substring(1)));
    }
    if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
      try {
        return SnapshotSelector.snapshot(SnapshotId.parse(t));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(what + " '" + text + "': " + e.getMessage(), e);
      }
    }
    throw new IllegalArgumentException(what + " '" + text + "' is not a snapshot: use current, a snapshot id,"
        + " tag:NAME or @TIME (epoch milliseconds, 2026-11-30T08:00:00Z or 'yyyy-MM-dd HH:mm:ss' in UTC)");
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
