package io.snapds.events.example;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.mapreduce.SnapshotMapReduceUtil;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.events.EventHandler;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link EventHandler} that, for each PUBLISHED event of {@code source} (say {@code shop:prices}),
 * runs a MapReduce job that reads exactly the published snapshot (pinned by its id, whatever is
 * published meanwhile) and writes it as a new snapshot of {@code derived}, with run id
 * {@link #runId derived-<snapshot id>}. The job here copies the rows (a real one would transform
 * them); what matters is the run id: a dataset commits a run id at most once, so an event handled
 * twice (a duplicate, a replay, a crash before the consumer recorded it) runs a job that publishes
 * nothing and returns the snapshot of the first run.
 *
 * <p>Other events, and events of other datasets, are ignored (and still marked processed by the
 * consumer). A PUBLISHED snapshot that is no longer readable when its event is handled (expired
 * and cleaned by then) is skipped with a warning: a later PUBLISHED event derives a newer one.
 */
public final class DerivedSnapshotJob implements EventHandler {
  private static final Logger LOG = LoggerFactory.getLogger(DerivedSnapshotJob.class);

  private final Configuration conf;
  private final SnapshotDatasets datasets;
  private final DatasetId source;
  private final DatasetId derived;

  /**
   * @param conf the job configuration (HBase, the transaction client factory, the job runner)
   * @param datasets to check that the source snapshot is still readable
   */
  public DerivedSnapshotJob(Configuration conf, SnapshotDatasets datasets, DatasetId source, DatasetId derived) {
    this.conf = checkNotNull(conf, "conf");
    this.datasets = checkNotNull(datasets, "datasets");
    this.source = checkNotNull(source, "source");
    this.derived = checkNotNull(derived, "derived");
  }

  /** The run id of the derived snapshot of {@code sourceSnapshot}: {@code derived-<id>}. */
  public static String runId(SnapshotId sourceSnapshot) {
    return "derived-" + sourceSnapshot;
  }

  @Override
  public void handle(DatasetEvent event) throws IOException, InterruptedException, ClassNotFoundException {
    if (event.type() != DatasetEvent.Type.PUBLISHED || !event.dataset().equals(source)) {
      return;
    }
    SnapshotId snapshot = event.snapshotId();
    try (SnapshotDataset ds = datasets.open(source)) {
      SnapshotState state = ds.snapshot(snapshot).state();
      if (state != SnapshotState.COMMITTED || ds.isCleaned(snapshot)) {
        LOG.warn("snapshot {} of {} is {} now: nothing to derive from it", snapshot, source, state);
        return;
      }
    } catch (SnapshotNotAvailableException gone) { // also past the history horizon
      LOG.warn("snapshot {} of {} is gone: nothing to derive from it ({})", snapshot, source, gone.getMessage());
      return;
    }
    Job job = Job.getInstance(new Configuration(conf), "derive " + derived + " from " + source + "@" + snapshot);
    // ship the project's jars with the job: on a cluster the tasks and the application master run on
    // a Hadoop node's class path, which has neither snapds nor Tephra
    SnapshotMapReduceUtil.initSnapshotCopyJob(source, SnapshotSelector.snapshot(snapshot), derived, runId(snapshot),
        job, true);
    if (!SnapshotMapReduceUtil.runJob(job, false)) {
      throw new IOException("job " + job.getJobID() + " deriving " + derived + " from snapshot " + snapshot + " of "
          + source + " failed");
    }
  }

  @Override
  public String toString() {
    return "DerivedSnapshotJob{" + source + " -> " + derived + "}";
  }
}
