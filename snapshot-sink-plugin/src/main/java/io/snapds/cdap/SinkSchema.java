package io.snapds.cdap;

import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.FailureCollector;
import io.cdap.cdap.etl.api.validation.ValidationFailure;
import io.snapds.cdap.codec.InputSchemaPlan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.schema.SchemaException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's side of dataset schemas: whether a run writes typed rows (in the dataset's schema,
 * {@code codec.SchemaRecordCodec}) or the plugin's byte cells, what about the input schema stops
 * it, and, in prepareRun, giving the dataset its schema or evolving it
 * ({@link InputSchemaPlan}) before the run's snapshot begins, so that the snapshot records it.
 */
final class SinkSchema {
  static final String AUTO = "auto";
  static final String TYPED = "typed";
  static final String BYTES = "bytes";
  static final List<String> MODES = List.of(AUTO, TYPED, BYTES);

  private static final Logger LOG = LoggerFactory.getLogger(SinkSchema.class);

  private SinkSchema() {}

  /** Whether records go into a dataset schema, for a dataset in {@code state} (missing: the sink creates it). */
  static boolean typed(String mode, DatasetState state) {
    if (BYTES.equals(mode)) {
      return false;
    }
    return TYPED.equals(mode) || !state.exists() || state.schema().isPresent();
  }

  /**
   * Reports to {@code collector} every reason records of {@code input} cannot be written into
   * the dataset in {@code state}: each names the input field, or the property, it concerns.
   * Returns whether the run writes typed rows.
   */
  static boolean validate(SnapshotSinkConfig config, Schema input, DatasetState state, FailureCollector collector) {
    String mode = config.schemaMode();
    if (BYTES.equals(mode) && state.schema().isPresent()) {
      collector.addFailure("Dataset " + config.datasetId() + " has a schema, so records must be stored in it; "
          + "schema mode 'bytes' would write cells it cannot read.", "Set 'schemaMode' to 'auto' or 'typed'.")
          .withConfigProperty(SnapshotSinkConfig.SCHEMA_MODE);
      return false;
    }
    boolean typed = typed(mode, state);
    if (!typed) {
      if (config.rowKeyFields().isEmpty() && !config.containsMacro(SnapshotSinkConfig.ROW_KEY_FIELDS)) {
        collector.addFailure("Row key fields are required.", "Name one or more input fields in 'rowKeyFields'.")
            .withConfigProperty(SnapshotSinkConfig.ROW_KEY_FIELDS);
      }
      return false;
    }
    if (state.exists() && !state.families().get(0).equals(config.columnFamily())) {
      collector.addFailure("A dataset schema's fields are in the dataset's first column family '"
          + state.families().get(0) + "', not '" + config.columnFamily() + "'.",
          "Set 'columnFamily' to '" + state.families().get(0) + "'.")
          .withConfigProperty(SnapshotDatasetConfig.COLUMN_FAMILY);
    }
    report(InputSchemaPlan.of(input, config.rowKeyFields(), state.schema()), input, collector);
    return typed;
  }

  private static void report(InputSchemaPlan plan, Schema input, FailureCollector collector) {
    for (InputSchemaPlan.Problem p : plan.problems()) {
      boolean noType = p.message().contains("has no dataset type");
      ValidationFailure failure = collector.addFailure("Input schema does not fit the dataset: " + p.message() + ".",
          noType ? "Convert the field before this sink, or set 'schemaMode' to 'bytes' (the plugin's byte cells)."
              : "Change the input schema or the dataset's schema, or write another dataset.");
      if (p.field() != null && input.getField(p.field()) != null) {
        failure.withInputSchemaField(p.field());
      } else {
        failure.withConfigProperty(SnapshotSinkConfig.ROW_KEY_FIELDS);
      }
    }
  }

  /**
   * In prepareRun, before the snapshot begins: gives the dataset the input's schema when it has
   * none, or evolves its schema to fit the input. Reports (and throws, through the collector)
   * when the input cannot fit; then nothing is changed.
   */
  static void prepare(SnapshotSinkConfig config, SnapshotDataset dataset, Schema input, FailureCollector collector) {
    InputSchemaPlan plan = InputSchemaPlan.of(input, config.rowKeyFields(), dataset.schema());
    report(plan, input, collector);
    collector.getOrThrowException();
    try {
      if (plan.schemaToCreate().isPresent()) {
        dataset.setSchema(plan.schemaToCreate().get());
        LOG.info("Gave dataset {} the input's schema [{}]", dataset.id(), plan.schemaToCreate().get());
      } else if (plan.evolves()) {
        dataset.updateSchema(plan::applyTo);
        LOG.info("Evolved the schema of dataset {} to fit the input ({}): now [{}]", dataset.id(), plan,
            dataset.schema().orElseThrow());
      }
    } catch (SchemaException e) {
      // the schema changed since it was read (another writer evolved it): the change no longer applies
      ValidationFailure failure = collector.addFailure("The dataset's schema cannot take the input: " + e.getMessage()
          + ".", "Run again; if it fails again, change the input schema.");
      if (e.field() != null && input.getField(e.field()) != null) {
        failure.withInputSchemaField(e.field());
      }
      collector.getOrThrowException();
    }
  }

  /**
   * After the snapshot began: the schema it records must take the input as it is (else another
   * writer changed the schema in between).
   *
   * @throws IllegalStateException naming what no longer fits
   */
  static void checkFits(io.snapds.dataset.schema.Schema recorded, Schema input, SnapshotSinkConfig config) {
    InputSchemaPlan plan = InputSchemaPlan.of(input, config.rowKeyFields(), java.util.Optional.of(recorded));
    if (!plan.problems().isEmpty() || plan.evolves()) {
      throw new IllegalStateException("the dataset's schema changed while the run began (now [" + recorded
          + "]): the input no longer fits it as it is (" + plan + "); run again");
    }
  }
}
