package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Macro;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.FailureCollector;
import io.snapds.cdap.codec.SchemaTypes;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.lock.LockSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The sink's properties: beside the dataset and connection, the row key, the retention and lock
 * settings the dataset is created with, and what makes a run idempotent (run id, source key).
 */
public class SnapshotSinkConfig extends SnapshotDatasetConfig {
  public static final String ROW_KEY_FIELDS = "rowKeyFields";
  public static final String RETAIN_LAST = "retainLast";
  public static final String MAX_AGE = "maxAge";
  public static final String LOCK_LEASE_SECONDS = "lockLeaseSeconds";
  public static final String LOCK_ACQUIRE_TIMEOUT_SECONDS = "lockAcquireTimeoutSeconds";
  public static final String LOCK_MAX_WAITERS = "lockMaxWaiters";
  public static final String SOURCE_KEY = "sourceKey";
  public static final String RUN_ID = "runId";
  public static final String SCHEMA_MODE = "schemaMode";
  public static final String PUBLISH_MODE = "publishMode";
  /** {@link #PUBLISH_MODE}: the run's snapshot becomes current when the run succeeds (the default). */
  public static final String PUBLISH = "publish";
  /** {@link #PUBLISH_MODE}: the run's snapshot is staged, for {@link SnapshotPublishAction} (or a person) to publish. */
  public static final String STAGE = "stage";
  static final List<String> PUBLISH_MODES = List.of(PUBLISH, STAGE);

  static final int MAX_ID_LENGTH = 1024;

  @Name(ROW_KEY_FIELDS)
  @Description("Input fields that make the row key, comma-separated, in order. Several fields are joined in an "
      + "order-preserving binary encoding. Types: string, bytes, boolean, int, long, float, double, date, time, "
      + "timestamp, datetime. Empty: the key fields of the dataset's schema (when it has one).")
  @Macro
  @Nullable
  String rowKeyFields;

  @Name(SCHEMA_MODE)
  @Description("How records are stored. 'auto' (default): in the dataset's schema when it has one or this sink "
      + "creates it (created from the input schema, evolved when the input adds or widens fields); an existing "
      + "dataset without a schema keeps the plugin's byte cells. 'typed': always in a dataset schema (a dataset "
      + "without one gets the input's). 'bytes': the plugin's byte cells, no dataset schema.")
  @Macro
  @Nullable
  String schemaMode;

  @Name(PUBLISH_MODE)
  @Description("What a successful run does with its snapshot. 'publish' (default): makes it current. 'stage': "
      + "stages it (complete, readable by id, never current) under the run id, so that checks can run first; the "
      + "SnapshotPublish post-run action, or 'snapds publish', makes it current. A retried run stages once.")
  @Macro
  @Nullable
  String publishMode;

  @Name(RETAIN_LAST)
  @Description("How many committed snapshots stay readable (at least 1). Defaults to 3. Applied when the sink "
      + "creates the dataset.")
  @Macro
  @Nullable
  Integer retainLast;

  @Name(MAX_AGE)
  @Description("Also keep every snapshot younger than this (for example 7d, 12h, or ISO-8601 P7D). Empty: only "
      + "the last N. Applied when the sink creates the dataset.")
  @Macro
  @Nullable
  String maxAge;

  @Name(LOCK_LEASE_SECONDS)
  @Description("Seconds a writer's lease on the dataset lasts without a heartbeat. Defaults to 60. Applied when "
      + "the sink creates the dataset.")
  @Macro
  @Nullable
  Integer lockLeaseSeconds;

  @Name(LOCK_ACQUIRE_TIMEOUT_SECONDS)
  @Description("Seconds a run waits for the writer lock before failing. Defaults to 300. Applied when the sink "
      + "creates the dataset.")
  @Macro
  @Nullable
  Integer lockAcquireTimeoutSeconds;

  @Name(LOCK_MAX_WAITERS)
  @Description("How many runs may wait for the writer lock at once. Defaults to 20. Applied when the sink "
      + "creates the dataset.")
  @Macro
  @Nullable
  Integer lockMaxWaiters;

  @Name(SOURCE_KEY)
  @Description("What the snapshot is built from (for example a date range). Runs with the same source key "
      + "share one build: when a committed snapshot for the key exists, the run writes nothing.")
  @Macro
  @Nullable
  String sourceKey;

  @Name(RUN_ID)
  @Description("Identifies the run; a run id is published at most once, so a retried run does not publish "
      + "again. Defaults to <namespace>.<pipeline>.<stage>.<logical start time>, unique per sink stage.")
  @Macro
  @Nullable
  String runId;

  public List<String> rowKeyFields() {
    List<String> out = new ArrayList<>();
    if (rowKeyFields != null) {
      for (String f : rowKeyFields.split(",")) {
        if (!f.isBlank()) {
          out.add(f.trim());
        }
      }
    }
    return out;
  }

  /** {@link SinkSchema#AUTO}, {@link SinkSchema#TYPED} or {@link SinkSchema#BYTES}. */
  public String schemaMode() {
    return isEmpty(schemaMode) ? SinkSchema.AUTO : schemaMode.trim().toLowerCase(java.util.Locale.ROOT);
  }

  /** {@link #PUBLISH} or {@link #STAGE}, lower-cased; anything else is refused by {@link #validate}. */
  public String publishMode() {
    return isEmpty(publishMode) ? PUBLISH : publishMode.trim().toLowerCase(java.util.Locale.ROOT);
  }

  /** Whether a successful run stages its snapshot instead of publishing it. */
  public boolean stages() {
    return STAGE.equals(publishMode());
  }

  public int retainLast() {
    return retainLast == null ? RetentionPolicy.DEFAULT.retainLast() : retainLast;
  }

  public Optional<Duration> maxAge() {
    return isEmpty(maxAge) ? Optional.empty() : Optional.of(io.snapds.dataset.Durations.parse(maxAge));
  }

  public Optional<String> sourceKey() {
    return Optional.ofNullable(emptyToNull(sourceKey));
  }

  /**
   * The configured run id, else {@code <namespace>.<pipeline>.<stage>.<logicalStartTime>}: the
   * stage name keeps two sinks of one pipeline writing one dataset apart (each publishes its own
   * snapshot), while a re-run of the same logical run (same {@code logical.start.time}) finds
   * each sink's run id published and publishes nothing again.
   */
  public String runId(String namespace, String pipeline, String stage, long logicalStartTime) {
    String configured = emptyToNull(runId);
    return configured != null ? configured : namespace + "." + pipeline + "." + stage + "." + logicalStartTime;
  }

  /**
   * The properties a dataset created by this sink gets.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public DatasetProperties datasetProperties() {
    RetentionPolicy retention = RetentionPolicy.retainLast(retainLast());
    Optional<Duration> age = maxAge();
    if (age.isPresent()) {
      retention = retention.withMaxAge(age.get());
    }
    LockSettings defaults = LockSettings.DEFAULT;
    LockSettings lock = LockSettings.builder()
        .leaseDuration(lockLeaseSeconds == null ? defaults.leaseDuration() : Duration.ofSeconds(lockLeaseSeconds))
        .acquireTimeout(lockAcquireTimeoutSeconds == null ? defaults.acquireTimeout()
            : Duration.ofSeconds(lockAcquireTimeoutSeconds))
        .maxWaiters(lockMaxWaiters == null ? defaults.maxWaiters() : lockMaxWaiters)
        .build();
    return DatasetProperties.builder().families(columnFamily()).retention(retention).lockSettings(lock).build();
  }

  /**
   * Reports every problem of the properties and of the input schema to {@code collector}, each
   * naming the property (and the input field) it concerns. Properties holding macros are
   * checked when the run starts; a null schema (not known yet) skips the schema checks.
   */
  public void validate(FailureCollector collector, @Nullable Schema inputSchema) {
    validate(collector, inputSchema, false);
  }

  /**
   * The same; {@code keysFromDataset}: no key fields is fine, the dataset's schema has them (or
   * whether it has is known only when the run starts).
   */
  public void validate(FailureCollector collector, @Nullable Schema inputSchema, boolean keysFromDataset) {
    validateDataset(collector);
    if (!containsMacro(SCHEMA_MODE) && !SinkSchema.MODES.contains(schemaMode())) {
      collector.addFailure("Invalid schema mode '" + schemaMode + "'.", "Use one of " + SinkSchema.MODES + ".")
          .withConfigProperty(SCHEMA_MODE);
    }
    if (!containsMacro(PUBLISH_MODE) && !PUBLISH_MODES.contains(publishMode())) {
      collector.addFailure("Invalid publish mode '" + publishMode + "'.", "Use one of " + PUBLISH_MODES + ".")
          .withConfigProperty(PUBLISH_MODE);
    }
    validateKeyFields(collector, inputSchema, keysFromDataset);
    if (inputSchema != null) {
      for (Schema.Field f : inputSchema.getFields()) {
        SchemaTypes.columnProblem(f.getSchema()).ifPresent(p -> collector.addFailure(
            "Input field '" + f.getName() + "' cannot be stored: " + p + ".",
            "Change the field's type, or drop the field before this sink.").withInputSchemaField(f.getName()));
      }
    }
    if (!containsMacro(RETAIN_LAST) && retainLast != null && retainLast < 1) {
      collector.addFailure("Retain last must be at least 1, got " + retainLast + ".", "Set 'retainLast' to 1 or more.")
          .withConfigProperty(RETAIN_LAST);
    }
    if (!containsMacro(MAX_AGE) && !isEmpty(maxAge)) {
      try {
        Duration age = io.snapds.dataset.Durations.parse(maxAge);
        if (age.isZero() || age.isNegative()) {
          collector.addFailure("Max age must be positive, got '" + maxAge + "'.", "Use for example 7d.")
              .withConfigProperty(MAX_AGE);
        }
      } catch (IllegalArgumentException e) {
        collector.addFailure("Invalid max age: " + e.getMessage() + ".", "Use for example 7d or P7D.")
            .withConfigProperty(MAX_AGE);
      }
    }
    if (!containsMacro(LOCK_LEASE_SECONDS) && lockLeaseSeconds != null && lockLeaseSeconds < 1) {
      collector.addFailure("Lock lease must be at least 1 second, got " + lockLeaseSeconds + ".",
          "Set 'lockLeaseSeconds' to 1 or more.").withConfigProperty(LOCK_LEASE_SECONDS);
    }
    if (!containsMacro(LOCK_ACQUIRE_TIMEOUT_SECONDS) && lockAcquireTimeoutSeconds != null && lockAcquireTimeoutSeconds < 0) {
      collector.addFailure("Lock acquire timeout must not be negative, got " + lockAcquireTimeoutSeconds + ".",
          "Set 'lockAcquireTimeoutSeconds' to 0 or more.").withConfigProperty(LOCK_ACQUIRE_TIMEOUT_SECONDS);
    }
    if (!containsMacro(LOCK_MAX_WAITERS) && lockMaxWaiters != null && lockMaxWaiters < 1) {
      collector.addFailure("Lock max waiters must be at least 1, got " + lockMaxWaiters + ".",
          "Set 'lockMaxWaiters' to 1 or more.").withConfigProperty(LOCK_MAX_WAITERS);
    }
    validateId(collector, SOURCE_KEY, sourceKey, "Source key");
    validateId(collector, RUN_ID, runId, "Run id");
  }

  private void validateKeyFields(FailureCollector collector, @Nullable Schema inputSchema, boolean keysFromDataset) {
    if (containsMacro(ROW_KEY_FIELDS)) {
      return;
    }
    List<String> keys = rowKeyFields();
    if (keys.isEmpty() && keysFromDataset) {
      return;
    }
    if (keys.isEmpty()) {
      collector.addFailure("Row key fields are required.", "Name one or more input fields in 'rowKeyFields'.")
          .withConfigProperty(ROW_KEY_FIELDS);
      return;
    }
    Set<String> seen = new HashSet<>();
    for (String key : keys) {
      if (!seen.add(key)) {
        collector.addFailure("Row key field '" + key + "' is listed twice.", "Name each field once.")
            .withConfigElement(ROW_KEY_FIELDS, key);
        continue;
      }
      if (inputSchema == null) {
        continue;
      }
      Schema.Field field = inputSchema.getField(key);
      if (field == null) {
        collector.addFailure("Row key field '" + key + "' is not in the input schema.",
            "Use one of " + fieldNames(inputSchema) + ".").withConfigElement(ROW_KEY_FIELDS, key);
        continue;
      }
      SchemaTypes.keyProblem(field.getSchema()).ifPresent(p -> collector.addFailure(
          "Row key field '" + key + "' has an unsupported type: " + p + ".",
          "Use a field of a supported type, or convert it before this sink.")
          .withConfigElement(ROW_KEY_FIELDS, key).withInputSchemaField(key));
    }
  }

  private void validateId(FailureCollector collector, String property, @Nullable String value, String what) {
    if (!containsMacro(property) && value != null && value.length() > MAX_ID_LENGTH) {
      collector.addFailure(what + " is " + value.length() + " characters long, over " + MAX_ID_LENGTH + ".",
          "Shorten '" + property + "'.").withConfigProperty(property);
    }
  }

  private static List<String> fieldNames(Schema schema) {
    List<String> out = new ArrayList<>();
    schema.getFields().forEach(f -> out.add(f.getName()));
    return out;
  }
}
