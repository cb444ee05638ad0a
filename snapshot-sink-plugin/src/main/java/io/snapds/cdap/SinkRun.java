package io.snapds.cdap;

import io.cdap.cdap.api.data.batch.OutputFormatProvider;
import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.FailureCollector;
import io.cdap.cdap.etl.api.batch.BatchSinkContext;
import io.snapds.dataset.DatasetAlreadyExistsException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.NewSnapshot;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.tx.JobDatasets;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's side of one pipeline run in the driver: begins the run's snapshot (creating the
 * dataset if missing) in {@code prepareRun}, and publishes (or, with {@code publishMode} =
 * {@code stage}, stages) or aborts it in {@code onRunFinish}.
 * The begun snapshot travels to the tasks and to {@code onRunFinish} as its handle in the run's
 * arguments ({@link PluginConfKeys#handleArgument}).
 */
final class SinkRun implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SinkRun.class);

  private final JobDatasets connection;
  private final SnapshotDataset dataset;
  private final SnapshotWriter writer;
  private final String runId;
  private final boolean stages;

  private SinkRun(JobDatasets connection, SnapshotDataset dataset, SnapshotWriter writer, String runId,
      boolean stages) {
    this.connection = connection;
    this.dataset = dataset;
    this.writer = writer;
    this.runId = runId;
    this.stages = stages;
  }

  /**
   * Opens (or creates) the dataset, checks it has the configured column family, and begins the
   * run's snapshot under the writer lock. Records the handle (or, when the run id or source key
   * was published before, that snapshot's id) in the run's arguments.
   *
   * @throws io.cdap.cdap.etl.api.validation.ValidationException when the dataset lacks the family
   * @throws io.snapds.dataset.lock.LockUnavailableException when the writer lock could not be had
   */
  static SinkRun begin(SnapshotSinkConfig config, BatchSinkContext context) {
    JobDatasets connection = config.connectionSettings().open();
    try {
      FailureCollector collector = context.getFailureCollector();
      DatasetState before = DatasetLookup.of(connection.datasets(), config.datasetId());
      if (before.exists() && !before.families().contains(config.columnFamily())) {
        collector.addFailure("Dataset " + config.datasetId() + " has no column family '" + config.columnFamily()
            + "'; it has " + before.families() + ".", "Use one of the dataset's families.")
            .withConfigProperty(SnapshotDatasetConfig.COLUMN_FAMILY);
        collector.getOrThrowException();
      }
      Schema input = context.getInputSchema();
      boolean typed = input != null && SinkSchema.validate(config, input, before, collector);
      collector.getOrThrowException();
      SnapshotDataset dataset = openOrCreate(connection.datasets(), config);
      if (typed) {
        SinkSchema.prepare(config, dataset, input, collector);
      }
      String runId = config.runId(context.getNamespace(), context.getPipelineName(), context.getStageName(),
          context.getLogicalStartTime());
      if (config.stages()) {
        recordStagedRun(context, dataset.id(), runId);
      }
      NewSnapshot snapshot = dataset.newSnapshot().runId(runId)
          .owner("cdap:" + context.getNamespace() + ":" + context.getPipelineName() + ":" + context.getStageName());
      config.sourceKey().ifPresent(snapshot::sourceKey);
      SnapshotWriter writer = snapshot.begin();
      try {
        String stage = context.getStageName();
        Optional<SnapshotInfo> published = writer.alreadyPublished();
        if (published.isPresent()) {
          LOG.info("Run '{}' of stage {} was {} before as snapshot {} of {}: this run writes nothing",
              runId, stage, published.get().state() == io.snapds.dataset.SnapshotState.STAGED ? "staged" : "published",
              published.get().id(), dataset.id());
          context.getArguments().set(PluginConfKeys.publishedArgument(stage), published.get().id().toString());
        } else {
          SnapshotHandle handle = writer.handle().orElseThrow();
          if (typed) {
            // the schema the snapshot records (the current one when it began) is what the tasks write in
            io.snapds.dataset.schema.Schema recorded = dataset.schema(handle.snapshotId()).orElseThrow(() ->
                new IllegalStateException("snapshot " + handle.snapshotId() + " began without the schema just set"));
            SinkSchema.checkFits(recorded, input, config);
            context.getArguments().set(PluginConfKeys.sinkSchemaArgument(stage), recorded.toStringWithIds());
          }
          LOG.info("Stage {} writes run '{}' as snapshot {} of {}{}", stage, runId, handle.snapshotId(), dataset.id(),
              typed ? " in its schema" : " as byte cells");
          context.getArguments().set(PluginConfKeys.handleArgument(stage), handle.encode());
        }
        return new SinkRun(connection, dataset, writer, runId, config.stages());
      } catch (RuntimeException e) {
        writer.close(); // aborts the snapshot just begun and releases the lock
        throw e;
      }
    } catch (RuntimeException e) {
      ConnectionSettings.close(connection);
      throw e;
    }
  }

  /**
   * Resumes the run's snapshot from the handle in the run's arguments, for an {@code onRunFinish}
   * called on another instance than {@code prepareRun}. Empty when prepareRun recorded nothing,
   * or the snapshot is no longer being built.
   */
  static Optional<SinkRun> resume(SnapshotSinkConfig config, BatchSinkContext context) {
    String handle = context.getArguments().get(PluginConfKeys.handleArgument(context.getStageName()));
    if (handle == null) {
      return Optional.empty();
    }
    SnapshotHandle decoded = SnapshotHandle.decode(handle);
    JobDatasets connection = config.connectionSettings().open();
    try {
      SnapshotDataset dataset = connection.datasets().open(config.datasetId());
      SnapshotWriter writer = dataset.resume(decoded);
      return Optional.of(new SinkRun(connection, dataset, writer, "resumed " + decoded.snapshotId(),
          config.stages()));
    } catch (SnapshotNotAvailableException e) {
      // prepareRun failed after beginning and aborted it, or it was finished already
      LOG.info("Snapshot {} is no longer being built ({}): nothing to finish", decoded.snapshotId(), e.getMessage());
      ConnectionSettings.close(connection);
      return Optional.empty();
    } catch (RuntimeException e) {
      ConnectionSettings.close(connection);
      throw e;
    }
  }

  /**
   * Tells the run's post-run actions ({@link SnapshotPublishAction}) under which run id this stage
   * stages {@code dataset}. A publish group holds one snapshot per dataset, so a second sink
   * staging the same dataset in the same run (under another run id) is refused before it begins.
   */
  private static void recordStagedRun(BatchSinkContext context, DatasetId dataset, String runId) {
    String key = PluginConfKeys.stagedRunArgument(dataset);
    String other = context.getArguments().get(key);
    if (other != null && !other.equals(runId)) {
      FailureCollector collector = context.getFailureCollector();
      collector.addFailure("Stage " + context.getStageName() + " would stage dataset " + dataset + " under run id '"
          + runId + "', but another sink of this run stages it under run id '" + other + "'.",
          "Let one sink per dataset stage in a pipeline, or write the other with publishMode 'publish'.")
          .withConfigProperty(SnapshotSinkConfig.PUBLISH_MODE);
      collector.getOrThrowException();
    }
    context.getArguments().set(key, runId);
  }

  private static SnapshotDataset openOrCreate(SnapshotDatasets datasets, SnapshotSinkConfig config) {
    DatasetId id = config.datasetId();
    if (datasets.exists(id)) {
      return datasets.open(id);
    }
    try {
      LOG.info("Creating snapshot dataset {} with {}", id, config.datasetProperties());
      return datasets.create(id, config.datasetProperties());
    } catch (DatasetAlreadyExistsException e) {
      return datasets.open(id); // created concurrently by another run
    }
  }

  SnapshotDataset dataset() {
    return dataset;
  }

  /**
   * The stage's output: the snapshot output format writing into the run's snapshot, or
   * discarding rows when the run was published before.
   */
  OutputFormatProvider output(ConnectionSettings settings) {
    Optional<SnapshotInfo> published = writer.alreadyPublished();
    return published.isPresent() ? SnapshotOutputs.discarding(settings, dataset.id(), published.get().id())
        : SnapshotOutputs.writing(settings, dataset.id(), writer.handle().orElseThrow());
  }

  /**
   * Publishes (or stages) the snapshot when the run succeeded, aborts it otherwise (the current
   * snapshot stays as it was; the run's rows are left to cleanup). Returns the snapshot published
   * or staged, the one published or staged before for this run id, or empty after an abort.
   */
  Optional<SnapshotInfo> finish(boolean succeeded) {
    if (writer.alreadyPublished().isPresent()) {
      return writer.alreadyPublished();
    }
    if (succeeded) {
      // the tasks wrote through their own row writers: the record counts what is stored
      SnapshotWriter counted = writer.countStoredRows();
      SnapshotInfo info = stages ? counted.stage() : counted.commit();
      LOG.info("{} snapshot {} of {} for run '{}'", stages ? "Staged (not current until published)" : "Published",
          info.id(), dataset.id(), runId);
      return Optional.of(info);
    }
    writer.abort();
    LOG.info("Run '{}' failed: aborted snapshot {} of {}; the current snapshot is unchanged",
        runId, writer.snapshotId(), dataset.id());
    return Optional.empty();
  }

  @Override
  public void close() {
    try {
      writer.close();
    } finally {
      ConnectionSettings.close(connection);
    }
  }
}
