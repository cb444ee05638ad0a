package io.snapds.cdap;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.FailureCollector;
import io.snapds.cdap.codec.InputSchemaPlan;
import io.snapds.cdap.codec.OutputSchemas;
import io.snapds.cdap.codec.RecordCodec;
import io.snapds.cdap.codec.SchemaRecordCodec;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * How the source turns rows into records of its output schema. A row of a snapshot with a
 * schema is decoded with that snapshot's own schema, then projected by field id onto the
 * dataset's schema current when the run was prepared, restricted to the output's fields: so a
 * field renamed since keeps its value, one added since is null, one widened is widened. A row of
 * a schema-less snapshot is read as the plugin's byte cells ({@link RecordCodec}). The output
 * schema is the configured one, or the dataset's current schema in CDAP types. Not thread-safe
 * (one per task, as a stage instance is).
 */
final class SourceDecoder {
  /** The record name of an output schema taken from the dataset. */
  static final String RECORD_NAME = "snapshot";

  private final Schema output;
  private final String family;
  @Nullable
  private final io.snapds.dataset.schema.Schema target;
  @Nullable
  private final SchemaRecordCodec typed;
  @Nullable
  private RecordCodec cells;

  private SourceDecoder(Schema output, String family, @Nullable io.snapds.dataset.schema.Schema target) {
    this.output = output;
    this.family = family;
    this.target = target;
    this.typed = target == null ? null : SchemaRecordCodec.forReading(output, target, family);
  }

  /**
   * The output schema: the configured one, else the dataset's {@code current} schema. Reports to
   * {@code collector} an output field the dataset's schema lacks (an unknown column) or reads
   * as another type, and a missing schema for a dataset known to have none
   * ({@code datasetKnown}). Null when not known yet.
   */
  @Nullable
  static Schema outputSchema(SnapshotSourceConfig config, Optional<io.snapds.dataset.schema.Schema> current,
      boolean datasetKnown, FailureCollector collector) {
    if (config.hasSchema()) {
      Schema given = config.schema();
      if (current.isPresent()) {
        for (InputSchemaPlan.Problem p : OutputSchemas.problems(given, current.get())) {
          collector.addFailure("Output schema does not fit the dataset: " + p.message() + ".",
              "Remove or fix the field, or leave the schema empty to get the dataset's.")
              .withOutputSchemaField(p.field()).withConfigProperty(SnapshotSourceConfig.SCHEMA);
        }
      }
      return given;
    }
    if (current.isPresent()) {
      return SchemaRecordCodec.cdapSchemaOf(current.get(), RECORD_NAME);
    }
    if (datasetKnown) {
      collector.addFailure("Schema is required: dataset " + config.datasetId() + " has no schema of its own.",
          "Set the output schema.").withConfigProperty(SnapshotSourceConfig.SCHEMA);
    }
    return null;
  }

  /**
   * The decoder of a task, given the dataset schema prepareRun recorded ({@code current}, empty
   * for a schema-less dataset).
   *
   * @throws IllegalStateException when there is neither a configured nor a dataset schema
   */
  static SourceDecoder of(SnapshotSourceConfig config, Optional<io.snapds.dataset.schema.Schema> current) {
    if (!config.hasSchema() && current.isEmpty()) {
      throw new IllegalStateException("no output schema: none is configured and dataset " + config.datasetId()
          + " had no schema when the run was prepared");
    }
    Schema output = config.hasSchema() ? config.schema()
        : SchemaRecordCodec.cdapSchemaOf(current.get(), RECORD_NAME);
    io.snapds.dataset.schema.Schema target = current.map(c -> c.select(names(output))).orElse(null);
    return new SourceDecoder(output, config.columnFamily(), target);
  }

  private static List<String> names(Schema record) {
    List<String> out = new ArrayList<>();
    record.getFields().forEach(f -> out.add(f.getName()));
    return out;
  }

  /**
   * @throws io.snapds.dataset.schema.InvalidValueException naming the field whose stored bytes
   *     do not decode
   */
  StructuredRecord decode(SnapshotRecordWritable value) {
    if (value.schema().isEmpty()) {
      if (cells == null) {
        cells = RecordCodec.forReading(output, family);
      }
      return cells.fromRow(value.row());
    }
    if (typed != null) {
      return typed.fromRecord(value.record(target));
    }
    // the dataset had no schema when the run was prepared, and the pinned snapshot has one
    io.snapds.dataset.schema.Schema own = value.schema().get();
    return SchemaRecordCodec.forReading(output, own.select(names(output)), family).fromRecord(
        value.record(own.select(names(output))));
  }
}
