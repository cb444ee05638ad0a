package io.snapds.events.example;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;

/**
 * Starts the downstream job of one published snapshot ({@link StartJobOnPublish}): a scheduler's
 * API, a workflow engine, a MapReduce job. It must be idempotent per run id, since the same
 * PUBLISHED event may be handled again (a consumer killed after the start and before it recorded
 * the event): a second call with a run id started before starts nothing.
 */
@FunctionalInterface
public interface JobLauncher {
  /**
   * Starts the job {@code runId} on {@code snapshot} of {@code dataset}, unless it was started before.
   *
   * @return true if this call started it, false if it had been started before
   * @throws Exception when it could not tell or could not start (the event is offered again)
   */
  boolean start(String runId, DatasetId dataset, SnapshotId snapshot) throws Exception;
}
