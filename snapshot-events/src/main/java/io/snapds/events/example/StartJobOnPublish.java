package io.snapds.events.example;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.events.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The second half of the quality gate example ({@link QualityGateExample}): for each PUBLISHED
 * event of {@code source}, starts the downstream job of that snapshot through a {@link JobLauncher},
 * with run id {@link #runId job-<snapshot id>}. A stage the gate discarded writes no PUBLISHED
 * event, so it never starts a job. Other events, and events of other datasets, are ignored.
 *
 * <p>An event handled twice (the consumer killed after the start and before it recorded the event)
 * calls the launcher again with the same run id, which starts nothing: one job per published
 * snapshot.
 */
public final class StartJobOnPublish implements EventHandler {
  private static final Logger LOG = LoggerFactory.getLogger(StartJobOnPublish.class);

  private final DatasetId source;
  private final JobLauncher launcher;

  public StartJobOnPublish(DatasetId source, JobLauncher launcher) {
    this.source = checkNotNull(source, "source");
    this.launcher = checkNotNull(launcher, "launcher");
  }

  /** The run id of the downstream job of {@code snapshot}: {@code job-<id>}. */
  public static String runId(SnapshotId snapshot) {
    return "job-" + snapshot;
  }

  @Override
  public void handle(DatasetEvent event) throws Exception {
    if (event.type() != DatasetEvent.Type.PUBLISHED || !event.dataset().equals(source)) {
      return;
    }
    SnapshotId snapshot = event.snapshotId();
    String runId = runId(snapshot);
    if (launcher.start(runId, source, snapshot)) {
      LOG.info("started downstream job {} on {}@{}", runId, source, snapshot);
    } else {
      LOG.info("downstream job {} on {}@{} was started before", runId, source, snapshot);
    }
  }

  @Override
  public String toString() {
    return "StartJobOnPublish{" + source + "}";
  }
}
