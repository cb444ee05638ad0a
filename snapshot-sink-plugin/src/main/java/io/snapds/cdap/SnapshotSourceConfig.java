package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Macro;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.FailureCollector;
import io.cdap.cdap.etl.api.validation.ValidationFailure;
import io.snapds.cdap.codec.SchemaTypes;
import io.snapds.dataset.SnapshotId;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The source's properties: beside the dataset and connection, which snapshot to read (the
 * current one, a snapshot id, the one a tag names, or the one current at a time; at most one of
 * id, tag and time) and the schema of the records.
 */
public class SnapshotSourceConfig extends SnapshotDatasetConfig {
  public static final String SNAPSHOT_ID = "snapshotId";
  public static final String AS_OF = "asOf";
  public static final String TAG = "tag";
  public static final String SCHEMA = "schema";

  @Name(SNAPSHOT_ID)
  @Description("Id of the snapshot to read. Empty: the current snapshot (or the one given by 'asOf').")
  @Macro
  @Nullable
  String snapshotId;

  @Name(TAG)
  @Description("Read the snapshot this tag names when the run starts (exact name, as 'snapds tag' set it). "
      + "Empty: the current snapshot (or the one given by 'snapshotId' or 'asOf').")
  @Macro
  @Nullable
  String tag;

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

  public Optional<String> tag() {
    return isEmpty(tag) ? Optional.empty() : Optional.of(tag.trim());
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

  private String selection(String property) {
    return SNAPSHOT_ID.equals(property) ? snapshotId : TAG.equals(property) ? tag : asOf;
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
    List<String> selections = new ArrayList<>();
    for (String property : new String[] {SNAPSHOT_ID, TAG, AS_OF}) {
      if (containsMacro(property) || !isEmpty(selection(property))) {
        selections.add(property);
      }
    }
    boolean macros = selections.stream().anyMatch(this::containsMacro);
    if (selections.size() > 1 && !macros) {
      ValidationFailure failure = collector.addFailure(
          selections.size() == 2 && selections.containsAll(List.of(SNAPSHOT_ID, AS_OF))
              ? "Both a snapshot id and an as-of time are set."
              : "More than one of snapshot id, tag and as-of time is set: " + String.join(", ", selections) + ".",
          "Set at most one of them.");
      selections.forEach(failure::withConfigProperty);
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
