package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Macro;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.FailureCollector;
import io.snapds.cdap.codec.SchemaTypes;
import io.snapds.dataset.SnapshotId;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The source's properties: beside the dataset and connection, which snapshot to read (the
 * current one, a snapshot id, or the one current at a time) and the schema of the records.
 */
public class SnapshotSourceConfig extends SnapshotDatasetConfig {
  public static final String SNAPSHOT_ID = "snapshotId";
  public static final String AS_OF = "asOf";
  public static final String SCHEMA = "schema";

  @Name(SNAPSHOT_ID)
  @Description("Id of the snapshot to read. Empty: the current snapshot (or the one given by 'asOf').")
  @Macro
  @Nullable
  String snapshotId;

  @Name(AS_OF)
  @Description("Read the snapshot that was current at this time: ISO-8601 (2026-11-30T06:00:00Z) or epoch "
      + "milliseconds. Empty: the current snapshot.")
  @Macro
  @Nullable
  String asOf;

  @Name(SCHEMA)
  @Description("Schema of the records to emit. Empty: the dataset's current schema (for a dataset with a schema). "
      + "For a dataset with a schema, a subset of its fields by name and type; each snapshot is read with the "
      + "schema it was written with and projected onto this one. For a dataset without one: one field per column "
      + "of the column family, named as the column.")
  @Macro
  @Nullable
  String schema;

  public Optional<SnapshotId> snapshotId() {
    return isEmpty(snapshotId) ? Optional.empty() : Optional.of(SnapshotId.parse(snapshotId.trim()));
  }

  public Optional<Instant> asOf() {
    if (isEmpty(asOf)) {
      return Optional.empty();
    }
    String t = asOf.trim();
    if (t.chars().allMatch(Character::isDigit)) {
      return Optional.of(Instant.ofEpochMilli(Long.parseLong(t)));
    }
    try {
      return Optional.of(Instant.parse(t));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("invalid time '" + asOf + "': use ISO-8601 (2026-11-30T06:00:00Z) "
          + "or epoch milliseconds");
    }
  }

  /** Whether an output schema is given (else the dataset's schema gives it). */
  public boolean hasSchema() {
    return !isEmpty(schema);
  }

  /** @throws IllegalArgumentException when the schema is not valid JSON of a record schema */
  public Schema schema() {
    try {
      return Schema.parseJson(schema);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("invalid schema: " + e.getMessage(), e);
    }
  }

  /** Reports every problem of the properties to {@code collector}, each naming its property. */
  public void validate(FailureCollector collector) {
    validateDataset(collector);
    if (!containsMacro(SNAPSHOT_ID) && !isEmpty(snapshotId)) {
      try {
        snapshotId();
      } catch (IllegalArgumentException e) {
        collector.addFailure("Invalid snapshot id '" + snapshotId + "': " + e.getMessage() + ".",
            "Use a snapshot id as listed by the dataset, or leave it empty.").withConfigProperty(SNAPSHOT_ID);
      }
    }
    if (!containsMacro(AS_OF) && !isEmpty(asOf)) {
      try {
        asOf();
      } catch (IllegalArgumentException e) {
        collector.addFailure("Invalid as-of time: " + e.getMessage() + ".", "Use ISO-8601 or epoch milliseconds.")
            .withConfigProperty(AS_OF);
      }
    }
    if (!containsMacro(SNAPSHOT_ID) && !containsMacro(AS_OF) && !isEmpty(snapshotId) && !isEmpty(asOf)) {
      collector.addFailure("Both a snapshot id and an as-of time are set.", "Set at most one of them.")
          .withConfigProperty(SNAPSHOT_ID).withConfigProperty(AS_OF);
    }
    if (containsMacro(SCHEMA)) {
      return;
    }
    if (isEmpty(schema)) {
      return; // the dataset's schema, or a failure in prepareRun if it has none
    }
    Schema parsed;
    try {
      parsed = schema();
    } catch (IllegalArgumentException e) {
      collector.addFailure("Invalid schema: " + e.getMessage() + ".", "Give a record schema in JSON.")
          .withConfigProperty(SCHEMA);
      return;
    }
    if (parsed.getType() != Schema.Type.RECORD) {
      collector.addFailure("Schema must be a record, got " + parsed.getType() + ".", "Give a record schema.")
          .withConfigProperty(SCHEMA);
      return;
    }
    for (Schema.Field f : parsed.getFields()) {
      SchemaTypes.columnProblem(f.getSchema()).ifPresent(p -> collector.addFailure(
          "Output field '" + f.getName() + "' cannot be read: " + p + ".", "Change the field's type.")
          .withOutputSchemaField(f.getName()));
    }
  }
}
