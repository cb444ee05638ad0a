package io.snapds.hive;

import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.PinKeeper;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves each query's snapshots once and pins them. Hive calls the storage handler many times
 * while it compiles and runs one query (each plan stage, the fetch task, the input summary); the
 * first call resolves the selection against the dataset, takes a {@link ReaderPin} so cleanup
 * keeps the snapshot's rows, and every later call of the same query gets the same id. A query is
 * told apart by its Hive session, query id and query start time (Hive sets a new one on each
 * compile, also when a driver is reused).
 *
 * <p>Pins are released by {@link SnapshotQueryHook} when the query ends, or expire after
 * {@code snapds.reader.pin.ttl.seconds} (default one day) without the hook.
 */
final class QueryPins {
  private static final Logger LOG = LoggerFactory.getLogger(QueryPins.class);
  private static final long DEFAULT_PIN_TTL_SECONDS = 86_400;
  private static final Duration FORGET_AFTER = Duration.ofDays(2);
  private static final Map<Key, Resolved> RESOLVED = new ConcurrentHashMap<>();
  private static final Map<String, List<PinKeeper>> PINS = new ConcurrentHashMap<>();
  private static final Map<String, List<String>> DEFERRED = new ConcurrentHashMap<>();

  private record Resolved(SnapshotId snapshot, Instant at) {}

  private QueryPins() {}

  /** The snapshot {@code selector} names for the query being compiled, resolved on the query's first call. */
  static SnapshotId resolve(Configuration conf, DatasetId dataset, SnapshotSelector selector) {
    String queryId = conf.get(HiveConf.ConfVars.HIVE_QUERY_ID.varname, "");
    SessionState session = SessionState.get();
    if (session == null || session.getQueryCurrentTimestamp() == null) {
      return resolveAndPin(conf, queryId, dataset, selector); // not in a Hive session: nothing to share with
    }
    Key key = new Key(session.getSessionId(), queryId, session.getQueryCurrentTimestamp().toString(), dataset, selector);
    forgetOldQueries();
    return RESOLVED.computeIfAbsent(key, k -> new Resolved(resolveAndPin(conf, queryId, dataset, selector),
        Instant.now())).snapshot();
  }

  private static SnapshotId resolveAndPin(Configuration conf, String queryId, DatasetId datasetId,
      SnapshotSelector selector) {
    SnapshotDatasets datasets = DatasetConnections.datasets(conf);
    try (SnapshotDataset dataset = datasets.open(datasetId)) {
      Duration ttl = Duration.ofSeconds(conf.getLong(HiveTableProperties.PIN_TTL_SECONDS, DEFAULT_PIN_TTL_SECONDS));
      String owner = "hive:" + (queryId.isEmpty() ? "unknown-query" : queryId);
      ReaderPin pin = selector.pin(dataset, owner, ttl);
      SnapshotId id = pin.snapshotId();
      // renewed while the query runs, released when it ends (SnapshotQueryHook)
      PINS.computeIfAbsent(queryId, q -> new CopyOnWriteArrayList<>()).add(new PinKeeper(pin, ttl));
      LOG.info("query {} reads {} of {}: snapshot {} (pinned for {})", queryId, selector, datasetId, id, ttl);
      return id;
    }
  }

  /**
   * Checks a snapshot that this query resolved and pinned when it was compiled. It may have
   * expired since: its pin keeps its rows from cleanup, so the query reads on.
   *
   * @throws io.snapds.dataset.SnapshotNotAvailableException if it was never committed
   */
  static SnapshotId checkPinned(Configuration conf, DatasetId datasetId, SnapshotId snapshot) {
    try (SnapshotDataset dataset = DatasetConnections.datasets(conf).open(datasetId)) {
      SnapshotState state = dataset.snapshot(snapshot).state();
      if (state != SnapshotState.COMMITTED && state != SnapshotState.EXPIRED) {
        throw new SnapshotNotAvailableException(datasetId, snapshot, state);
      }
      if (dataset.isCleaned(snapshot)) {
        throw new SnapshotNotAvailableException(datasetId, "snapshot " + snapshot + " of dataset " + datasetId
            + " that this query pinned was cleaned: its pin lapsed (the HiveServer that compiled the query"
            + " stopped renewing it); run the query again");
      }
      return snapshot;
    }
  }

  /** For Hive servers that run without the lifetime hook: entries of long finished queries go. */
  private static void forgetOldQueries() {
    if (RESOLVED.size() > 1_000) {
      Instant old = Instant.now().minus(FORGET_AFTER);
      RESOLVED.entrySet().removeIf(e -> {
        boolean stale = e.getValue().at().isBefore(old);
        if (stale) {
          List<PinKeeper> stalePins = PINS.remove(e.getKey().queryId());
          if (stalePins != null) {
            stalePins.forEach(PinKeeper::close); // stop renewing what no hook will release
          }
        }
        return stale;
      });
    }
  }

  /**
   * Releases the query's pins when the session compiles its next query: for a query whose rows a
   * fetch task reads after Hive considers it executed.
   */
  static void releaseWithNextQuery(String sessionId, String queryId) {
    DEFERRED.computeIfAbsent(sessionId, s -> new CopyOnWriteArrayList<>()).add(queryId);
  }

  /** Releases what {@link #releaseWithNextQuery} deferred for the session. */
  static void releaseDeferred(String sessionId) {
    List<String> queries = DEFERRED.remove(sessionId);
    if (queries != null) {
      queries.forEach(QueryPins::release);
    }
  }

  /** Releases the pins of a query and forgets its resolutions; for {@link SnapshotQueryHook}. */
  static void release(String queryId) {
    RESOLVED.keySet().removeIf(k -> k.queryId().equals(queryId));
    List<PinKeeper> pins = PINS.remove(queryId);
    if (pins == null) {
      return;
    }
    for (PinKeeper pin : pins) {
      try {
        pin.close();
      } catch (RuntimeException e) {
        LOG.warn("releasing {} failed; it expires on its own", pin.pin(), e);
      }
    }
  }

  /** Pins held for a query, for tests and the hook. */
  static List<ReaderPin> pins(String queryId) {
    return PINS.getOrDefault(queryId, List.of()).stream().map(PinKeeper::pin).toList();
  }

  private record Key(String session, String queryId, String queryStart, DatasetId dataset,
      SnapshotSelector selector) {}
}
