package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.annotation.Plugin;
import io.cdap.cdap.api.data.batch.Output;
import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.api.dataset.lib.KeyValue;
import io.cdap.cdap.etl.api.Emitter;
import io.cdap.cdap.etl.api.FailureCollector;
import io.cdap.cdap.etl.api.PipelineConfigurer;
import io.cdap.cdap.etl.api.StageConfigurer;
import io.cdap.cdap.etl.api.batch.BatchRuntimeContext;
import io.cdap.cdap.etl.api.batch.BatchSink;
import io.cdap.cdap.etl.api.batch.BatchSinkContext;
import io.snapds.cdap.codec.RecordCodec;
import io.snapds.cdap.codec.SchemaRecordCodec;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import java.util.Optional;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.hadoop.io.NullWritable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CDAP batch sink that writes each pipeline run as one snapshot of a snapshot dataset, and
 * publishes it atomically when the run succeeds: readers see the previous complete snapshot or
 * this one, never a mix.
 *
 * <p>Lifecycle, as the pipeline engine drives it:
 * <ol>
 *   <li>{@link #configurePipeline}: checks the properties and the input schema, reporting every
 *       problem at once;</li>
 *   <li>{@link #prepareRun} (driver): creates the dataset if missing, begins the run's snapshot
 *       (taking the writer lock), and adds the snapshot output format as the stage's output;</li>
 *   <li>{@link #initialize} (each task): resolves the snapshot the run writes, which is named
 *       by the write pointer of the run's building transaction;</li>
 *   <li>{@link #transform} (each task): turns each record into a row of that snapshot;</li>
 *   <li>{@link #onRunFinish} (driver): publishes the snapshot if the run succeeded, aborts it
 *       otherwise (the current snapshot stays; the run's rows are left to cleanup).</li>
 * </ol>
 * A run whose run id was published before (a retried run) writes nothing and publishes nothing.
 */
@Plugin(type = BatchSink.PLUGIN_TYPE)
@Name(SnapshotSink.NAME)
@Description("Writes each pipeline run as one snapshot of a versioned snapshot dataset in HBase, published "
    + "atomically when the run succeeds.")
public class SnapshotSink extends BatchSink<StructuredRecord, NullWritable, SnapshotRowWritable> {
  public static final String NAME = "SnapshotDataset";
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotSink.class);

  private final SnapshotSinkConfig config;
  @Nullable
  private SinkRun run;
  @Nullable
  private Function<StructuredRecord, SnapshotRow> encoder;
  @Nullable
  private SnapshotId writingSnapshot;
  private boolean publishedBefore;

  public SnapshotSink(SnapshotSinkConfig config) {
    this.config = config;
  }

  @Override
  public void configurePipeline(PipelineConfigurer pipelineConfigurer) {
    StageConfigurer stage = pipelineConfigurer.getStageConfigurer();
    FailureCollector collector = stage.getFailureCollector();
    Optional<DatasetState> state = DatasetLookup.atDeploy(config);
    config.validate(collector, stage.getInputSchema(), state.map(s -> s.schema().isPresent()).orElse(false));
    if (stage.getInputSchema() != null && !config.containsMacro(SnapshotSinkConfig.SCHEMA_MODE)) {
      if (state.isPresent()) {
        SinkSchema.validate(config, stage.getInputSchema(), state.get(), collector);
      } else if (SinkSchema.TYPED.equals(config.schemaMode())) {
        // the dataset is not known now: at least every field needs a dataset type
        SinkSchema.validate(config, stage.getInputSchema(), DatasetState.missing(), collector);
      }
    }
    collector.getOrThrowException();
  }

  @Override
  public void prepareRun(BatchSinkContext context) {
    FailureCollector collector = context.getFailureCollector();
    // empty key fields may be the dataset schema's: SinkRun checks them against the dataset
    config.validate(collector, context.getInputSchema(), true);
    collector.getOrThrowException();
    run = SinkRun.begin(config, context);
    try {
      context.addOutput(Output.of(config.referenceName(), run.output(config.connectionSettings())));
    } catch (RuntimeException e) {
      run.close();
      run = null;
      throw e;
    }
  }

  /**
   * Resolves the snapshot this run writes from the handle {@link #prepareRun} put into the run's
   * arguments, and records its id ({@link #writingSnapshot()}, the log, and the
   * {@code snapshot.id} gauge): the write pointer of the run's building transaction.
   */
  @Override
  public void initialize(BatchRuntimeContext context) throws Exception {
    super.initialize(context);
    Schema schema = context.getInputSchema();
    if (schema == null) {
      throw new IllegalStateException("stage " + context.getStageName() + " has no input schema: the sink "
          + "needs one to encode records");
    }
    String stage = context.getStageName();
    String datasetSchema = context.getArguments().get(PluginConfKeys.sinkSchemaArgument(stage));
    if (datasetSchema != null) {
      SchemaRecordCodec typed = SchemaRecordCodec.forWriting(schema,
          io.snapds.dataset.schema.Schema.parse(datasetSchema), config.columnFamily());
      encoder = typed::toRow;
    } else {
      RecordCodec cells = RecordCodec.forWriting(schema, config.columnFamily(), config.rowKeyFields());
      encoder = cells::toRow;
    }
    String handle = context.getArguments().get(PluginConfKeys.handleArgument(stage));
    if (handle != null) {
      writingSnapshot = SnapshotHandle.decode(handle).snapshotId();
      LOG.info("Stage {} writes into snapshot {} of {}", stage, writingSnapshot, config.datasetId());
    } else {
      String published = context.getArguments().get(PluginConfKeys.publishedArgument(stage));
      if (published == null) {
        throw new IllegalStateException("stage " + stage + " has no snapshot to write into: argument "
            + PluginConfKeys.handleArgument(stage) + " is missing (prepareRun did not run?)");
      }
      publishedBefore = true;
      writingSnapshot = SnapshotId.parse(published);
      LOG.info("Stage {}: this run was published before as snapshot {}; records are dropped", stage, writingSnapshot);
    }
    context.getMetrics().gauge("snapshot.id", writingSnapshot.value());
  }

  /** The snapshot this run writes (or published before); set by {@link #initialize}. */
  public Optional<SnapshotId> writingSnapshot() {
    return Optional.ofNullable(writingSnapshot);
  }

  @Override
  public void transform(StructuredRecord input, Emitter<KeyValue<NullWritable, SnapshotRowWritable>> emitter) {
    if (publishedBefore) {
      return;
    }
    emitter.emit(new KeyValue<>(NullWritable.get(), new SnapshotRowWritable(encoder.apply(input))));
  }

  @Override
  public void onRunFinish(boolean succeeded, BatchSinkContext context) {
    SinkRun finishing = run != null ? run : SinkRun.resume(config, context).orElse(null);
    run = null;
    if (finishing == null) {
      LOG.info("Stage {}: nothing to publish (the run was published before, or prepareRun failed)",
          context.getStageName());
      return;
    }
    try {
      Optional<SnapshotInfo> result = finishing.finish(succeeded);
      result.ifPresent(info -> context.getArguments().set(
          PluginConfKeys.publishedArgument(context.getStageName()), info.id().toString()));
    } finally {
      finishing.close();
    }
  }
}
