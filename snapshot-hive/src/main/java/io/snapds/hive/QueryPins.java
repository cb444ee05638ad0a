package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.PinRegistry;
import io.snapds.dataset.read.SnapshotRead;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hive's side of the core's read plan: each query's snapshots are resolved once and pinned
 * ({@link SnapshotRead}), held in the process's {@link PinRegistry} under {@code hive:<query id>}.
 * Hive calls the storage handler many times while it compiles and runs one query (each plan
 * stage, the fetch task, the input summary); the first call resolves the selection and pins it,
 * and every later call of the same query gets the same id. A query is told apart by its Hive
 * session, query id and query start time (Hive sets a new one on each compile, also when a driver
 * is reused).
 *
 * <p>Pins are released by {@link SnapshotQueryHook} when the query ends, or expire after
 * {@code snapds.reader.pin.ttl.seconds} (default one day) without the hook.
 */
final class QueryPins {
  private static final Logger LOG = LoggerFactory.getLogger(QueryPins.class);
  private static final long DEFAULT_PIN_TTL_SECONDS = 86_400;
  private static final Duration FORGET_AFTER = Duration.ofDays(2);
  private static final String HOLDER_PREFIX = "hive:";
  /** Queries whose pins go when their session compiles its next query. */
  private static final Map<String, List<String>> DEFERRED = new ConcurrentHashMap<>();
  /** Sessions whose close releases what they deferred (one cleanup item each). */
  private static final Set<String> CLOSE_RELEASES = ConcurrentHashMap.newKeySet();

  private QueryPins() {}

  /** The snapshot {@code selector} names for the query being compiled, resolved on the query's first call. */
  static SnapshotId resolve(Configuration conf, DatasetId dataset, SnapshotSelector selector) {
    return read(conf, dataset, selector).snapshotId();
  }

  /** The read plan {@link #resolve} holds for the query. */
  static SnapshotRead read(Configuration conf, DatasetId dataset, SnapshotSelector selector) {
    String queryId = conf.get(HiveConf.ConfVars.HIVE_QUERY_ID.varname, "");
    SessionState session = SessionState.get();
    // not in a Hive session: nothing to share with
    Object key = session == null || session.getQueryCurrentTimestamp() == null ? UUID.randomUUID()
        : new Key(session.getSessionId(), session.getQueryCurrentTimestamp().toString(), dataset, selector);
    forgetOldQueries();
    return PinRegistry.holdOnce(holder(queryId), key, () -> pin(conf, queryId, dataset, selector));
  }

  private static SnapshotRead pin(Configuration conf, String queryId, DatasetId datasetId, SnapshotSelector selector) {
    SnapshotDatasets datasets = DatasetConnections.datasets(conf);
    try (SnapshotDataset dataset = datasets.open(datasetId)) {
      Duration ttl = Duration.ofSeconds(conf.getLong(HiveTableProperties.PIN_TTL_SECONDS, DEFAULT_PIN_TTL_SECONDS));
      String owner = "hive:" + (queryId.isEmpty() ? "unknown-query" : queryId);
      SnapshotRead read = SnapshotRead.pin(datasets.connection(), dataset, selector, owner, ttl);
      LOG.info("query {} reads {} of {}: snapshot {} (pinned for {})", queryId, selector, datasetId,
          read.snapshotId(), ttl);
      return read;
    }
  }

  /**
   * The read of a snapshot that this query resolved and pinned when it was compiled (its pin is
   * held where the query was compiled). It may have expired since: its pin keeps its rows from
   * cleanup, so the query reads on.
   *
   * @throws io.snapds.dataset.SnapshotNotAvailableException if it was never committed, or was cleaned
   */
  static SnapshotRead pinned(Configuration conf, DatasetId datasetId, SnapshotId snapshot) {
    SnapshotDatasets datasets = DatasetConnections.datasets(conf);
    try (SnapshotDataset dataset = datasets.open(datasetId)) {
      return SnapshotRead.pinnedElsewhere(datasets.connection(), dataset, snapshot);
    }
  }

  /** For Hive servers that run without the lifetime hook: the pins of long finished queries go. */
  private static void forgetOldQueries() {
    if (PinRegistry.holders() > 1_000) {
      PinRegistry.releaseOlderThan(HOLDER_PREFIX, FORGET_AFTER);
    }
  }

  /**
   * Releases the query's pins when the session compiles its next query, or when it closes if that
   * comes first (a JDBC client that disconnects after reading its rows): for a query whose rows a
   * fetch task reads after Hive considers it executed.
   */
  static void releaseWithNextQuery(SessionState session, String queryId) {
    String sessionId = session.getSessionId();
    DEFERRED.computeIfAbsent(sessionId, s -> new CopyOnWriteArrayList<>()).add(queryId);
    if (CLOSE_RELEASES.add(sessionId)) {
      session.addCleanupItem(() -> {
        CLOSE_RELEASES.remove(sessionId);
        releaseDeferred(sessionId);
      });
    }
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
    PinRegistry.release(holder(queryId));
  }

  /** Pins held for a query, for tests and the hook. */
  static List<ReaderPin> pins(String queryId) {
    return PinRegistry.held(holder(queryId)).stream().map(r -> r.pin().orElseThrow()).toList();
  }

  private static String holder(String queryId) {
    return HOLDER_PREFIX + queryId;
  }

  private record Key(String session, String queryStart, DatasetId dataset, SnapshotSelector selector) {}
}
