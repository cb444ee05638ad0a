package io.snapds.dataset.store;

import com.google.common.base.Splitter;
import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.lock.LockSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dataset properties as string columns of the metadata table's {@code p} row, so that an operator
 * can read them with the HBase shell. Decoding validates them again: a property row that a
 * person edited into nonsense fails the open with the bad key and value named.
 */
public final class PropertiesCodec {
  /**
   * 4: snapshots may be STAGED ({@code SnapshotWriter.stage()}), which a library of format 3 would
   * misread (an unknown state) and whose rows its sweep would delete as unowned; no row of format 3
   * changes. 3: new snapshots get a key number and a short row-key prefix
   * ({@link io.snapds.dataset.SnapshotKeys}); the metadata rows are those of format 2.
   * 2: the bounded layout of {@link MetadataLayout} (indexes, pointer-row counters, history
   * horizon); its snapshots keep their 8-byte id prefix. 1: the first layout, which every read
   * scanned whole. Upgrade with {@code CompositeDatasetAdmin.upgrade()} or {@code snapds upgrade}.
   */
  public static final int FORMAT_VERSION = 4;
  /**
   * The oldest format this library opens without an upgrade: a format-2 dataset is read and
   * written as it is (new snapshots keep the 8-byte prefix, so a library of format 2 still reads
   * them) until it is upgraded.
   */
  public static final int MIN_FORMAT_VERSION = 2;
  /** The first format whose new snapshots get key numbers. */
  public static final int NUMBERED_KEYS_FORMAT = 3;
  /** The first format whose snapshots may be staged. */
  public static final int STAGED_FORMAT = 4;

  private PropertiesCodec() {}

  public static Map<String, String> encode(DatasetProperties p) {
    return encode(p, FORMAT_VERSION);
  }

  /** The properties of a dataset kept at {@code formatVersion} (a truncate keeps a format-2 dataset's). */
  public static Map<String, String> encode(DatasetProperties p, int formatVersion) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("format.version", Integer.toString(formatVersion));
    m.put("families", String.join(",", p.families()));
    m.put("retention.last", Integer.toString(p.retention().retainLast()));
    p.retention().maxAge().ifPresent(a -> m.put("retention.max.age", a.toString()));
    LockSettings l = p.lockSettings();
    m.put("lock.lease", l.leaseDuration().toString());
    m.put("lock.heartbeat", l.heartbeatInterval().toString());
    m.put("lock.acquire.timeout", l.acquireTimeout().toString());
    m.put("lock.max.waiters", Integer.toString(l.maxWaiters()));
    m.put("lock.retry.attempts", Integer.toString(l.retryAttempts()));
    m.put("lock.retry.backoff", l.retryBackoff().toString());
    m.put("lock.retry.max.backoff", l.retryMaxBackoff().toString());
    m.put("build.max.time", p.maxBuildTime().toString());
    m.put("commit.retries", Integer.toString(p.commitRetries()));
    m.put("history.retain.last", Integer.toString(p.historyRetainLast()));
    m.put("events.retain.last", Integer.toString(p.eventsRetainLast()));
    m.put("data.presplit", Boolean.toString(p.presplitMaxRegions() > 0));
    m.put("data.presplit.max.regions", Integer.toString(p.presplitMaxRegions()));
    m.put("cleanup.threads", Integer.toString(p.cleanupThreads()));
    if (!p.firstSplitPoints().isEmpty()) {
      m.put("data.presplit.first.points", SplitPoints.format(p.firstSplitPoints()));
    }
    m.put("data.merge", Boolean.toString(p.mergeEmptyRegions()));
    m.put("staged.max.age", p.stagedMaxAge().toString());
    p.historyRetainMaxAge().ifPresent(a -> m.put("history.retain.max.age", a.toString()));
    return m;
  }

  /** The format version recorded in the properties. */
  public static int formatVersion(DatasetId dataset, Map<String, String> m) {
    return new Reader(dataset, m).integer("format.version");
  }

  public static DatasetProperties decode(DatasetId dataset, Map<String, String> m) {
    Reader r = new Reader(dataset, m);
    int format = r.integer("format.version");
    if (format > FORMAT_VERSION) {
      throw new CorruptMetadataException(dataset, "p", "format.version " + format
          + " is newer than this library understands (" + FORMAT_VERSION + "): upgrade the library");
    }
    try {
      RetentionPolicy retention = RetentionPolicy.retainLast(r.integer("retention.last"));
      if (m.containsKey("retention.max.age")) {
        retention = retention.withMaxAge(r.duration("retention.max.age"));
      }
      LockSettings lock = LockSettings.builder()
          .leaseDuration(r.duration("lock.lease"))
          .heartbeatInterval(r.duration("lock.heartbeat"))
          .acquireTimeout(r.duration("lock.acquire.timeout"))
          .maxWaiters(r.integer("lock.max.waiters"))
          .retryAttempts(r.integer("lock.retry.attempts"))
          .retryBackoff(r.duration("lock.retry.backoff"), r.duration("lock.retry.max.backoff"))
          .build();
      return DatasetProperties.builder()
          .families(Splitter.on(',').splitToList(r.string("families")))
          .retention(retention).lockSettings(lock)
          .maxBuildTime(r.duration("build.max.time"))
          .commitRetries(r.integer("commit.retries"))
          .historyHorizon(m.containsKey("history.retain.last") ? r.integer("history.retain.last") : 100,
              m.containsKey("history.retain.max.age") ? r.duration("history.retain.max.age") : null)
          .eventsRetainLast(m.containsKey("events.retain.last") ? r.integer("events.retain.last") : 1000)
          .presplitMaxRegions("false".equals(m.get("data.presplit")) ? 0
              : m.containsKey("data.presplit.max.regions") ? r.integer("data.presplit.max.regions") : 64)
          .cleanupThreads(m.containsKey("cleanup.threads") ? r.integer("cleanup.threads") : 4)
          .firstSplitPoints(m.containsKey("data.presplit.first.points")
              ? SplitPoints.parse(r.string("data.presplit.first.points")) : List.of())
          .mergeEmptyRegions(!m.containsKey("data.merge") || r.bool("data.merge"))
          .stagedMaxAge(m.containsKey("staged.max.age") ? r.duration("staged.max.age") : Duration.ofDays(7))
          .build();
    } catch (IllegalArgumentException e) {
      throw new CorruptMetadataException(dataset, "p", "invalid properties: " + e.getMessage());
    }
  }

  private record Reader(DatasetId dataset, Map<String, String> m) {
    String string(String key) {
      String v = m.get(key);
      if (v == null) {
        throw new CorruptMetadataException(dataset, "p", "missing property '" + key + "'");
      }
      return v;
    }

    int integer(String key) {
      String v = string(key);
      try {
        return Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw new CorruptMetadataException(dataset, "p", "property '" + key + "' is not a number: '" + v + "'");
      }
    }

    boolean bool(String key) {
      String v = string(key);
      if (!v.equals("true") && !v.equals("false")) {
        throw new CorruptMetadataException(dataset, "p", "property '" + key + "' is not true or false: '" + v + "'");
      }
      return Boolean.parseBoolean(v);
    }

    Duration duration(String key) {
      String v = string(key);
      try {
        return Duration.parse(v);
      } catch (RuntimeException e) {
        throw new CorruptMetadataException(dataset, "p", "property '" + key + "' is not a duration: '" + v + "'");
      }
    }
  }
}
