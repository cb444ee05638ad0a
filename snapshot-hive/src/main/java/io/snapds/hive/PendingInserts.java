package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshots that running {@code INSERT OVERWRITE} queries are building, by query id. The
 * query's driver begins the snapshot before its job ({@link #begin}, from Hive's pre-insert
 * task), the job's tasks write rows under its id ({@link #buildingSnapshot}), and the driver
 * publishes (or, under {@link HiveTableProperties#WRITE_STAGE}, stages) it when the query
 * succeeded ({@link #commit}: from {@link SnapshotQueryHook} as a post-execution hook on
 * MapReduce, from Hive's insert-commit task on Tez) or aborts it when it did not ({@link #abort}). The run id {@code hive:<query id>}
 * names the snapshot, so tasks in other JVMs find it and a retried commit never publishes twice.
 */
final class PendingInserts {
  private static final Logger LOG = LoggerFactory.getLogger(PendingInserts.class);
  private static final Map<String, Pending> BUILDING = new ConcurrentHashMap<>();

  private record Pending(SnapshotWriter writer, DatasetId dataset, Configuration conf, boolean stage) {}

  private PendingInserts() {}

  static String runId(String queryId) {
    return "hive:" + queryId;
  }

  static String queryId(Configuration conf) {
    String id = conf.get(HiveConf.ConfVars.HIVE_QUERY_ID.varname, "");
    if (id.isEmpty()) {
      throw new IllegalStateException("no " + HiveConf.ConfVars.HIVE_QUERY_ID.varname + " in the configuration");
    }
    return id;
  }

  /**
   * Begins the query's snapshot (waits for the dataset's writer lock as the dataset's settings
   * say); {@link #commit} stages it instead of publishing it when {@code stage} is true.
   */
  static SnapshotId begin(Configuration conf, DatasetId datasetId, boolean stage) {
    String queryId = queryId(conf);
    SnapshotDatasets datasets = DatasetConnections.datasets(conf);
    SnapshotDataset dataset = datasets.open(datasetId);
    SnapshotWriter writer = dataset.newSnapshot().runId(runId(queryId)).owner(runId(queryId)).begin();
    BUILDING.put(queryId, new Pending(writer, datasetId, conf, stage));
    LOG.info("query {} builds snapshot {} of {}{}", queryId, writer.snapshotId(), datasetId,
        stage ? ", to be staged (" + HiveTableProperties.WRITE_STAGE + ")" : "");
    return writer.snapshotId();
  }

  /**
   * For tasks: the snapshot the query is building, found by its run id in the dataset's index of
   * builds in progress (one small read, whatever the history).
   */
  static SnapshotId buildingSnapshot(SnapshotDataset dataset, String queryId) {
    return dataset.buildingForRun(runId(queryId)).map(SnapshotInfo::id)
        .orElseThrow(() -> new SnapshotNotAvailableException(dataset.id(), "query " + queryId + " is building no "
            + "snapshot of " + dataset.id() + " (its insert was not begun, or was published or aborted already)"));
  }

  /**
   * Publishes the query's snapshot with its row and byte counts, if the query is building one; or
   * stages it, if it was begun to be staged.
   *
   * @throws io.snapds.dataset.SnapshotDatasetException if publishing fails; the snapshot is then aborted
   */
  static Optional<SnapshotInfo> commit(String queryId) {
    Pending pending = BUILDING.remove(queryId);
    if (pending == null) {
      return Optional.empty();
    }
    SnapshotWriter writer = pending.writer();
    try {
      // the tasks wrote through their own row writers: the record counts what is stored
      SnapshotWriter counted = writer.countStoredRows();
      SnapshotInfo published = pending.stage() ? counted.stage() : counted.commit();
      if (published.state() == SnapshotState.STAGED) {
        tellStaged(queryId, pending.dataset(), published);
      } else {
        LOG.info("query {} published snapshot {} of {} ({} rows)", queryId, published.id(), pending.dataset(),
            published.rowCount());
      }
      return Optional.of(published);
    } finally {
      writer.close(); // aborts unless committed
    }
  }

  /**
   * Tells the user which snapshot the query staged: in the log, on the session's console (what
   * the CLI and Beeline print), and in the session setting {@link HiveTableProperties#STAGED_SNAPSHOT}.
   */
  private static void tellStaged(String queryId, DatasetId dataset, SnapshotInfo staged) {
    String message = "staged snapshot " + staged.id() + " of " + dataset + " (" + staged.rowCount() + " rows): it is "
        + "not current; read it with FOR SYSTEM_VERSION AS OF " + staged.id() + ", then publish it (snapds publish "
        + dataset + "@" + staged.id() + ", SnapshotDataset.publish) or discard it";
    LOG.info("query {} {}", queryId, message);
    SessionState session = SessionState.get();
    if (session != null) {
      session.getConf().set(HiveTableProperties.STAGED_SNAPSHOT, staged.id().toString());
    }
    SessionState.LogHelper console = SessionState.getConsole();
    if (console != null) {
      console.printInfo(message);
    }
  }

  /** Aborts the query's snapshot, if it is building one; idempotent. */
  static void abort(String queryId) {
    Pending pending = BUILDING.remove(queryId);
    if (pending != null) {
      LOG.info("query {} did not succeed: aborting snapshot {} of {}", queryId, pending.writer().snapshotId(),
          pending.dataset());
      pending.writer().abort();
      pending.writer().close();
    }
  }
}
