package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.spark.SparkContext;

/**
 * The connector's options ({@code spark.read.format("snapds").option(...)}, the same on writes,
 * and the catalog's {@code spark.sql.catalog.snapds.*} settings), read once in the driver. Names
 * are case-insensitive; every bad value is refused with an {@link IllegalArgumentException} that
 * names the option and the value.
 */
final class SnapdsOptions {
  static final String DATASET = "dataset";
  static final String NAMESPACE = "namespace";
  static final String PATH = "path";
  static final String ZOOKEEPER = "zookeeper";
  static final String VERSION = "version";
  static final String TIMESTAMP = "timestamp";
  static final String TAG = "tag";
  static final String PIN_TTL = "pin.ttl.ms";
  static final String RUN_ID = "run.id";
  static final String STAGE = "stage";
  static final String WRITE_BUFFER = "write.buffer.bytes";
  static final String DIFF_FROM = "diff.from";
  static final String DIFF_TO = "diff.to";
  static final String DIFF_COLUMNS = "diff.columns";

  static final Duration DEFAULT_PIN_TTL = Duration.ofDays(1);
  static final long DEFAULT_WRITE_BUFFER = 4L << 20;

  private final Map<String, String> options = new HashMap<>();
  private final Map<String, String> conf = new HashMap<>();
  private final Map<String, String> given;

  SnapdsOptions(Map<String, String> given) {
    this.given = Map.copyOf(given);
    for (Map.Entry<String, String> e : given.entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      options.put(key, e.getValue());
      // Hadoop, HBase and snapds client settings pass through, with their case
      if (key.startsWith("hbase.") || key.startsWith("hadoop.") || key.startsWith("snapds.")
          || key.startsWith("zookeeper.")) {
        conf.put(e.getKey(), e.getValue());
      }
    }
  }

  /** These options with {@code more} (a write's own options) over them. */
  SnapdsOptions with(Map<String, String> more) {
    Map<String, String> all = new HashMap<>(given);
    all.putAll(more);
    return new SnapdsOptions(all);
  }

  String get(String name) {
    String v = options.get(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  /**
   * The dataset: option {@code dataset} as {@code namespace:name} (or {@code name} with option
   * {@code namespace}), or the path given to {@code load(...)} / {@code save(...)}.
   */
  DatasetId dataset() {
    String name = get(DATASET) != null ? get(DATASET) : get(PATH);
    if (name == null) {
      throw new IllegalArgumentException("no dataset: set option 'dataset' to 'namespace:name' (or call load(\"namespace:name\"))");
    }
    String ns = get(NAMESPACE);
    try {
      return ns != null && name.indexOf(':') < 0 ? DatasetId.of(ns, name) : DatasetId.parse(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid option 'dataset' '" + name + "': " + e.getMessage(), e);
    }
  }

  /** Which snapshot a read reads: option {@code version}, {@code timestamp} or {@code tag}, at most one. */
  SnapshotSelector selector() {
    String version = get(VERSION);
    String timestamp = get(TIMESTAMP);
    String tag = get(TAG);
    int set = (version != null ? 1 : 0) + (timestamp != null ? 1 : 0) + (tag != null ? 1 : 0);
    if (set > 1) {
      throw new IllegalArgumentException("options 'version' (" + version + "), 'timestamp' (" + timestamp
          + ") and 'tag' (" + tag + "): set at most one");
    }
    if (version != null) {
      try {
        return SnapshotSelector.snapshot(SnapshotId.parse(version));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("invalid option 'version' '" + version + "': expected a snapshot id", e);
      }
    }
    if (timestamp != null) {
      return SnapshotSelector.asOf(parseTime(timestamp));
    }
    return tag != null ? SnapshotSelector.tag(tag) : SnapshotSelector.current();
  }

  /**
   * A time: epoch milliseconds, an ISO instant ({@code 2026-12-06T09:00:00Z}) or an ISO date and
   * time without a zone, taken as UTC ({@code 2026-12-06 09:00:00}).
   */
  static Instant parseTime(String text) {
    return parseTime(TIMESTAMP, text, text);
  }

  private static Instant parseTime(String option, String given, String text) {
    String t = text.trim();
    if (t.matches("-?\\d+")) {
      return Instant.ofEpochMilli(Long.parseLong(t));
    }
    Instant time = isoTime(t);
    if (time == null) {
      throw new IllegalArgumentException("invalid option '" + option + "' '" + given
          + "': expected epoch milliseconds or an ISO time such as 2026-12-06T09:00:00Z");
    }
    return time;
  }

  /** An ISO instant, or an ISO date and time without a zone taken as UTC; null when {@code t} is neither. */
  private static Instant isoTime(String t) {
    try {
      return Instant.parse(t);
    } catch (DateTimeParseException e) {
      try {
        return LocalDateTime.parse(t.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException e2) {
        return null;
      }
    }
  }

  /** Whether these options ask for a diff (option {@code diff.from} or {@code diff.to} is set). */
  boolean isDiff() {
    return get(DIFF_FROM) != null || get(DIFF_TO) != null;
  }

  /**
   * The two snapshots of a diff, options {@code diff.from} and {@code diff.to}, each
   * {@link #diffSelector parsed}; both must be set, and none of {@code version}, {@code timestamp}
   * and {@code tag}.
   */
  SnapshotSelector[] diffSelectors() {
    String from = get(DIFF_FROM);
    String to = get(DIFF_TO);
    for (String single : new String[] {VERSION, TIMESTAMP, TAG}) {
      if (get(single) != null) {
        throw new IllegalArgumentException("option '" + single + "' (" + get(single) + ") selects one snapshot to read,"
            + " options 'diff.from' (" + from + ") and 'diff.to' (" + to + ") a diff of two: set one or the other");
      }
    }
    if (from == null || to == null) {
      String missing = from == null ? DIFF_FROM : DIFF_TO;
      String set = from == null ? DIFF_TO + "' '" + to : DIFF_FROM + "' '" + from;
      throw new IllegalArgumentException("option '" + missing + "' is not set: a diff needs both 'diff.from' and"
          + " 'diff.to' (given '" + set + "')");
    }
    return new SnapshotSelector[] {diffSelector(DIFF_FROM, from), diffSelector(DIFF_TO, to)};
  }

  /**
   * One side of a diff: {@code current}; a snapshot id (digits); {@code tag:NAME}; {@code @TIME}
   * (epoch milliseconds or an ISO time, as option {@code timestamp}); an ISO time; else a tag name
   * (as {@code VERSION AS OF 'name'}).
   */
  static SnapshotSelector diffSelector(String option, String value) {
    String t = value.trim();
    if (t.equalsIgnoreCase("current")) {
      return SnapshotSelector.current();
    }
    if (t.matches("\\d+")) {
      try {
        return SnapshotSelector.snapshot(SnapshotId.parse(t));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("invalid option '" + option + "' '" + value + "': " + e.getMessage(), e);
      }
    }
    if (t.startsWith("tag:")) {
      String name = t.substring(4).trim();
      if (name.isEmpty()) {
        throw new IllegalArgumentException("invalid option '" + option + "' '" + value + "': no tag name after 'tag:'");
      }
      return SnapshotSelector.tag(name);
    }
    if (t.startsWith("@")) {
      return SnapshotSelector.asOf(parseTime(option, value, t.substring(1)));
    }
    Instant time = isoTime(t);
    return time != null ? SnapshotSelector.asOf(time) : SnapshotSelector.tag(t);
  }

  /** Option {@code diff.columns}: the value columns a diff compares (comma-separated), or null for every column. */
  java.util.List<String> diffColumns() {
    String v = get(DIFF_COLUMNS);
    if (v == null) {
      return null;
    }
    java.util.List<String> out = new java.util.ArrayList<>();
    for (String c : v.split(",")) {
      if (c.isBlank()) {
        throw new IllegalArgumentException("invalid option 'diff.columns' '" + v + "': an empty column name");
      }
      out.add(c.trim());
    }
    return java.util.List.copyOf(out);
  }

  Duration pinTtl() {
    return Duration.ofMillis(positive(PIN_TTL, DEFAULT_PIN_TTL.toMillis()));
  }

  long writeBufferBytes() {
    return positive(WRITE_BUFFER, DEFAULT_WRITE_BUFFER);
  }

  String runId() {
    return get(RUN_ID);
  }

  boolean stage() {
    String v = get(STAGE);
    if (v == null) {
      return false;
    }
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException("invalid option 'stage' '" + v + "': expected true or false");
    }
    return Boolean.parseBoolean(v);
  }

  private long positive(String name, long otherwise) {
    String v = get(name);
    if (v == null) {
      return otherwise;
    }
    try {
      long n = Long.parseLong(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException("invalid option '" + name + "' '" + v + "': expected a positive number");
  }

  /**
   * The HBase client configuration: Spark's Hadoop configuration ({@code spark.hadoop.*}, the
   * cluster's site files), HBase's defaults and site file, then option {@code zookeeper} (the
   * quorum, {@code host[:port],...}) and every option that starts with {@code hbase.},
   * {@code hadoop.}, {@code zookeeper.} or {@code snapds.}.
   */
  Configuration hadoopConf() {
    Configuration base = SparkContext.getOrCreate().hadoopConfiguration();
    Configuration c = HBaseConfiguration.create(base);
    conf.forEach(c::set);
    String zk = get(ZOOKEEPER);
    if (zk != null) {
      c.set("hbase.zookeeper.quorum", zk);
    }
    return c;
  }
}
