package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.annotation.Plugin;
import io.cdap.cdap.api.data.batch.Input;
import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.dataset.lib.KeyValue;
import io.cdap.cdap.etl.api.Emitter;
import io.cdap.cdap.etl.api.FailureCollector;
import io.cdap.cdap.etl.api.PipelineConfigurer;
import io.cdap.cdap.etl.api.StageConfigurer;
import io.cdap.cdap.etl.api.batch.BatchRuntimeContext;
import io.cdap.cdap.etl.api.batch.BatchSource;
import io.cdap.cdap.etl.api.batch.BatchSourceContext;
import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import java.util.Optional;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CDAP batch source that reads one snapshot of a snapshot dataset: the current one, a given
 * snapshot id, or the one current at a given time. {@link #prepareRun} checks that the snapshot
 * is readable (a time resolves to its snapshot id there); the run's input pins it when the job
 * computes its splits, so every task of the run reads the same snapshot whatever is published
 * meanwhile. "Current" is the snapshot current when that pin holds, so a publish between
 * prepareRun and the job (with retention expiring the one prepareRun saw) does not fail the run.
 * Each row becomes a record of the output schema ({@link SourceDecoder}): for a dataset with a
 * schema, decoded with the schema its snapshot was written with and projected onto the output
 * (by default the dataset's current schema); for a schema-less one, the configured schema's
 * columns of the family.
 */
@Plugin(type = BatchSource.PLUGIN_TYPE)
@Name(SnapshotSource.NAME)
@Description("Reads one snapshot (the current one, a snapshot id, or the one current at a time) of a versioned "
    + "snapshot dataset in HBase.")
public class SnapshotSource extends BatchSource<ImmutableBytesWritable, SnapshotRecordWritable, StructuredRecord> {
  public static final String NAME = "SnapshotDataset";
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotSource.class);

  private final SnapshotSourceConfig config;
  @Nullable
  private SourceDecoder decoder;
  @Nullable
  private SnapshotId readSnapshot;
  @Nullable
  private String runToken;

  public SnapshotSource(SnapshotSourceConfig config) {
    this.config = config;
  }

  @Override
  public void configurePipeline(PipelineConfigurer pipelineConfigurer) {
    StageConfigurer stage = pipelineConfigurer.getStageConfigurer();
    FailureCollector collector = stage.getFailureCollector();
    config.validate(collector);
    collector.getOrThrowException();
    if (config.containsMacro(SnapshotSourceConfig.SCHEMA)) {
      stage.setOutputSchema(null); // a schema given by a macro is known only at runtime
      return;
    }
    Optional<DatasetState> state = DatasetLookup.atDeploy(config);
    Optional<io.snapds.dataset.schema.Schema> datasetSchema = state.flatMap(DatasetState::schema);
    Schema output = SourceDecoder.outputSchema(config, datasetSchema, state.isPresent() && state.get().exists(),
        collector);
    collector.getOrThrowException();
    stage.setOutputSchema(output);
  }

  @Override
  public void prepareRun(BatchSourceContext context) {
    FailureCollector collector = context.getFailureCollector();
    config.validate(collector);
    collector.getOrThrowException();
    SnapshotSelector selector;
    JobDatasets connection = config.connectionSettings().open();
    try {
      SnapshotDataset dataset = connection.open(config.datasetId());
      Optional<io.snapds.dataset.schema.Schema> datasetSchema = dataset.schema();
      SourceDecoder.outputSchema(config, datasetSchema, true, collector);
      if (datasetSchema.isPresent() && !dataset.properties().families().get(0).equals(config.columnFamily())) {
        collector.addFailure("A dataset schema's fields are in the dataset's first column family '"
            + dataset.properties().families().get(0) + "', not '" + config.columnFamily() + "'.",
            "Set 'columnFamily' to '" + dataset.properties().families().get(0) + "'.")
            .withConfigProperty(SnapshotDatasetConfig.COLUMN_FAMILY);
      }
      collector.getOrThrowException();
      // every snapshot's records are projected onto the schema current now (by field id)
      datasetSchema.ifPresent(c -> context.getArguments().set(PluginConfKeys.sourceSchemaArgument(context.getStageName()),
          c.toStringWithIds()));
      SnapshotSelector configured = configuredSelector();
      readSnapshot = configured.resolve(dataset);
      boolean current = configured.isCurrent();
      // an id, a tag or a time is resolved once, here: the job reads (and pins) that id
      selector = current ? SnapshotSelector.current() : SnapshotSelector.snapshot(readSnapshot);
      LOG.info("Stage {} reads snapshot {} of {}{}", context.getStageName(), readSnapshot, dataset.id(),
          current ? " (or the one current when the job pins it)" : "");
    } finally {
      ConnectionSettings.close(connection);
    }
    runToken = UUID.randomUUID().toString();
    context.getArguments().set(PluginConfKeys.sourceRunTokenArgument(context.getStageName()), runToken);
    context.setInput(Input.of(config.referenceName(), SnapshotInputs.provider(config.connectionSettings(),
        config.datasetId(), selector, config.columnFamily(), runToken)));
  }

  /**
   * Records the snapshot the run read (the {@code snapshot.id} gauge, as the sink does for the one
   * it wrote) and releases the reader pin the run's input took on it (else the pin lasts its
   * time-to-live). The gauge is left unset when the pin was taken in another process and the
   * selector was "current": the id {@link #prepareRun} saw may not be the one the job read.
   */
  @Override
  public void onRunFinish(boolean succeeded, BatchSourceContext context) {
    String token = context.getArguments().get(PluginConfKeys.sourceRunTokenArgument(context.getStageName()));
    Optional<SnapshotId> pinned = token == null ? Optional.empty() : PipelineSnapshotInputFormat.pinnedSnapshot(token);
    pinned.or(() -> configuredSelector().isCurrent() ? Optional.empty() : Optional.ofNullable(readSnapshot))
        .ifPresent(id -> context.getMetrics().gauge("snapshot.id", id.value()));
    if (token != null && PipelineSnapshotInputFormat.releasePin(token)) {
      LOG.info("Stage {} released its pin on snapshot {}", context.getStageName(), pinned.orElse(readSnapshot));
    }
  }

  /** The configured snapshot: by id, else by tag, else as of a time, else the current one. */
  private SnapshotSelector configuredSelector() {
    Optional<SnapshotId> id = config.snapshotId();
    if (id.isPresent()) {
      return SnapshotSelector.snapshot(id.get());
    }
    Optional<String> tag = config.tag();
    if (tag.isPresent()) {
      return SnapshotSelector.tag(tag.get());
    }
    return config.asOf().map(SnapshotSelector::asOf).orElseGet(SnapshotSelector::current);
  }

  /**
   * The snapshot the run reads: the one its input pinned, while this process holds that pin;
   * before that (or in another process), the one {@link #prepareRun} resolved.
   */
  public Optional<SnapshotId> readSnapshot() {
    Optional<SnapshotId> pinned = runToken == null ? Optional.empty()
        : PipelineSnapshotInputFormat.pinnedSnapshot(runToken);
    return pinned.isPresent() ? pinned : Optional.ofNullable(readSnapshot);
  }

  @Override
  public void initialize(BatchRuntimeContext context) throws Exception {
    super.initialize(context);
    String current = context.getArguments().get(PluginConfKeys.sourceSchemaArgument(context.getStageName()));
    decoder = SourceDecoder.of(config,
        current == null ? Optional.empty() : Optional.of(io.snapds.dataset.schema.Schema.parse(current)));
  }

  @Override
  public void transform(KeyValue<ImmutableBytesWritable, SnapshotRecordWritable> input,
      Emitter<StructuredRecord> emitter) {
    emitter.emit(decoder.decode(input.getValue()));
  }
}
