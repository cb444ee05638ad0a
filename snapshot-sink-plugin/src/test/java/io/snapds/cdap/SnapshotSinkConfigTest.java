package io.snapds.cdap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.validation.CauseAttributes;
import io.cdap.cdap.etl.api.validation.ValidationException;
import io.cdap.cdap.etl.api.validation.ValidationFailure;
import io.cdap.cdap.etl.mock.common.MockPipelineConfigurer;
import io.cdap.cdap.etl.mock.validation.MockFailureCollector;
import io.snapds.dataset.DatasetProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The sink's configurePipeline against CDAP's own MockPipelineConfigurer and MockFailureCollector. */
class SnapshotSinkConfigTest {
  private static final Schema INPUT = Schema.recordOf("in",
      Schema.Field.of("id", Schema.of(Schema.Type.LONG)),
      Schema.Field.of("name", Schema.nullableOf(Schema.of(Schema.Type.STRING))),
      Schema.Field.of("day", Schema.of(Schema.LogicalType.DATE)),
      Schema.Field.of("price", Schema.decimalOf(10, 2)),
      Schema.Field.of("tags", Schema.mapOf(Schema.of(Schema.Type.STRING), Schema.of(Schema.Type.STRING))));

  private static Map<String, String> valid() {
    Map<String, String> p = new HashMap<>();
    p.put("dataset", "prices");
    p.put("namespace", "shop");
    p.put("rowKeyFields", "id,day");
    return p;
  }

  private static List<ValidationFailure> configure(Map<String, String> properties, Schema input) {
    return configure(properties, Set.of(), input);
  }

  private static List<ValidationFailure> configure(Map<String, String> properties, Set<String> macros, Schema input) {
    SnapshotSink sink = new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, properties, macros));
    MockPipelineConfigurer configurer = new MockPipelineConfigurer(input);
    try {
      sink.configurePipeline(configurer);
      return List.of();
    } catch (ValidationException e) {
      return e.getFailures();
    }
  }

  private static List<ValidationFailure> configureWith(String property, String value) {
    Map<String, String> p = valid();
    p.put(property, value);
    return configure(p, INPUT);
  }

  /** The config properties (and elements) a failure points at, as CDAP's UI would highlight them. */
  private static Set<String> properties(ValidationFailure f) {
    return f.getCauses().stream().map(c -> c.getAttribute(CauseAttributes.STAGE_CONFIG))
        .filter(a -> a != null).collect(Collectors.toSet());
  }

  private static ValidationFailure single(List<ValidationFailure> failures) {
    assertEquals(1, failures.size(), () -> "failures: " + messages(failures));
    return failures.get(0);
  }

  private static List<String> messages(List<ValidationFailure> failures) {
    List<String> out = new ArrayList<>();
    failures.forEach(f -> out.add(f.getMessage()));
    return out;
  }

  @Test
  void aValidConfigPassesAndBuildsTheDatasetProperties() {
    Map<String, String> p = valid();
    p.put("retainLast", "5");
    p.put("maxAge", "7d");
    p.put("lockLeaseSeconds", "30");
    p.put("lockAcquireTimeoutSeconds", "0");
    p.put("lockMaxWaiters", "2");
    p.put("columnFamily", "cf");
    assertEquals(List.of(), configure(p, INPUT));
    DatasetProperties props = PluginConfigs.create(SnapshotSinkConfig.class, p).datasetProperties();
    assertEquals(List.of("cf"), props.families());
    assertEquals(5, props.retention().retainLast());
    assertEquals(Duration.ofDays(7), props.retention().maxAge().orElseThrow());
    assertEquals(Duration.ofSeconds(30), props.lockSettings().leaseDuration());
    assertEquals(Duration.ZERO, props.lockSettings().acquireTimeout());
    assertEquals(2, props.lockSettings().maxWaiters());
  }

  @Test
  void defaultsAreDocumentedOnes() {
    SnapshotSinkConfig config = PluginConfigs.create(SnapshotSinkConfig.class, valid());
    assertEquals("d", config.columnFamily());
    assertEquals(3, config.retainLast());
    assertEquals("shop.daily.prices-sink.1700000000000", config.runId("shop", "daily", "prices-sink", 1_700_000_000_000L));
    assertNotEquals(config.runId("shop", "daily", "sink-a", 1L), config.runId("shop", "daily", "sink-b", 1L),
        "two sinks of one pipeline run have two run ids");
    assertEquals("prices", config.referenceName());
    Map<String, String> p = valid();
    p.put("runId", "run-7");
    assertEquals("run-7", PluginConfigs.create(SnapshotSinkConfig.class, p).runId("shop", "daily", "prices-sink", 1L));
  }

  @Test
  void missingDatasetIsReportedOnTheDatasetProperty() {
    Map<String, String> p = valid();
    p.remove("dataset");
    ValidationFailure f = single(configure(p, INPUT));
    assertEquals("Dataset name is required.", f.getMessage());
    assertEquals(Set.of("dataset"), properties(f));
  }

  @Test
  void invalidDatasetNameIsReportedWithTheName() {
    ValidationFailure f = single(configureWith("dataset", "bad name!"));
    assertTrue(f.getMessage().startsWith("Invalid dataset 'bad name!' in namespace 'shop'"), f.getMessage());
    assertEquals(Set.of("dataset", "namespace"), properties(f));
  }

  @Test
  void invalidNamespaceIsReportedWithTheNamespace() {
    ValidationFailure f = single(configureWith("namespace", "a.b"));
    assertTrue(f.getMessage().contains("namespace 'a.b'"), f.getMessage());
    assertEquals(Set.of("dataset", "namespace"), properties(f));
  }

  @Test
  void invalidColumnFamilyIsReported() {
    ValidationFailure f = single(configureWith("columnFamily", "no spaces"));
    assertEquals("Invalid column family 'no spaces'.", f.getMessage());
    assertEquals(Set.of("columnFamily"), properties(f));
  }

  @Test
  void missingRowKeyFieldsAreReported() {
    ValidationFailure f = single(configureWith("rowKeyFields", " , "));
    assertEquals("Row key fields are required.", f.getMessage());
    assertEquals(Set.of("rowKeyFields"), properties(f));
  }

  @Test
  void anUnknownSchemaModeIsReportedAndTypedModeNamesEveryFieldWithoutADatasetType() {
    ValidationFailure f = single(configureWith("schemaMode", "json"));
    assertEquals("Invalid schema mode 'json'.", f.getMessage());
    assertEquals(Set.of("schemaMode"), properties(f));
    // typed, with the dataset not reachable while deploying: at least every field needs a dataset type
    ValidationFailure map = single(configureWith("schemaMode", "typed"));
    assertTrue(map.getMessage().startsWith("Input schema does not fit the dataset: input field 'tags' has no "
        + "dataset type"), map.getMessage());
  }

  @Test
  void anUnknownPublishModeIsReportedNamingTheValueAndStageIsAccepted() {
    ValidationFailure f = single(configureWith("publishMode", "later"));
    assertEquals("Invalid publish mode 'later'.", f.getMessage());
    assertEquals(Set.of("publishMode"), properties(f));
    assertEquals(List.of(), configureWith("publishMode", "stage"));
    assertEquals(List.of(), configureWith("publishMode", " Stage "));
    assertTrue(PluginConfigs.create(SnapshotSinkConfig.class, Map.of("publishMode", "STAGE")).stages());
    assertEquals("publish", PluginConfigs.create(SnapshotSinkConfig.class, Map.of()).publishMode());
  }

  @Test
  void aRowKeyFieldMissingFromTheInputSchemaIsNamed() {
    ValidationFailure f = single(configureWith("rowKeyFields", "id,sku"));
    assertEquals("Row key field 'sku' is not in the input schema.", f.getMessage());
    assertEquals(Set.of("rowKeyFields"), properties(f));
    assertEquals("sku", f.getCauses().get(0).getAttribute(CauseAttributes.CONFIG_ELEMENT));
  }

  @Test
  void aRowKeyFieldListedTwiceIsNamed() {
    ValidationFailure f = single(configureWith("rowKeyFields", "id,day,id"));
    assertEquals("Row key field 'id' is listed twice.", f.getMessage());
  }

  @Test
  void rowKeyFieldsOfUnsupportedTypesAreNamedWithTheirType() {
    List<ValidationFailure> failures = configureWith("rowKeyFields", "price,tags");
    assertEquals(List.of("Row key field 'price' has an unsupported type: decimal is not supported in a row key.",
        "Row key field 'tags' has an unsupported type: map is not supported in a row key (use string, bytes, "
            + "boolean, int, long, float, double, date, time or timestamp)."), messages(failures));
    ValidationFailure tags = failures.get(1);
    assertTrue(tags.getCauses().stream().anyMatch(c -> "tags".equals(c.getAttribute(CauseAttributes.INPUT_SCHEMA_FIELD))));
  }

  @Test
  void inputFieldsThatCannotBeStoredAreNamed() {
    Schema input = Schema.recordOf("in", Schema.Field.of("id", Schema.of(Schema.Type.LONG)),
        Schema.Field.of("either", Schema.unionOf(Schema.of(Schema.Type.INT), Schema.of(Schema.Type.STRING))),
        Schema.Field.of("nested", Schema.arrayOf(Schema.unionOf(Schema.of(Schema.Type.INT), Schema.of(Schema.Type.LONG)))));
    Map<String, String> p = valid();
    p.put("rowKeyFields", "id");
    List<ValidationFailure> failures = configure(p, input);
    assertEquals(2, failures.size(), () -> messages(failures).toString());
    assertTrue(failures.get(0).getMessage().startsWith("Input field 'either' cannot be stored: union"));
    assertTrue(failures.get(1).getMessage().startsWith("Input field 'nested' cannot be stored: union"));
    assertEquals("either", failures.get(0).getCauses().get(0).getAttribute(CauseAttributes.INPUT_SCHEMA_FIELD));
  }

  @Test
  void badRetentionIsReported() {
    assertEquals("Retain last must be at least 1, got 0.", single(configureWith("retainLast", "0")).getMessage());
    ValidationFailure age = single(configureWith("maxAge", "soon"));
    assertTrue(age.getMessage().startsWith("Invalid max age: invalid duration 'soon'"), age.getMessage());
    assertEquals(Set.of("maxAge"), properties(age));
    assertEquals("Max age must be positive, got 'PT-1H'.", single(configureWith("maxAge", "PT-1H")).getMessage());
    assertEquals("Max age must be positive, got '0d'.", single(configureWith("maxAge", "0d")).getMessage());
  }

  @Test
  void badLockSettingsAreReported() {
    ValidationFailure lease = single(configureWith("lockLeaseSeconds", "0"));
    assertEquals("Lock lease must be at least 1 second, got 0.", lease.getMessage());
    assertEquals(Set.of("lockLeaseSeconds"), properties(lease));
    ValidationFailure timeout = single(configureWith("lockAcquireTimeoutSeconds", "-1"));
    assertEquals("Lock acquire timeout must not be negative, got -1.", timeout.getMessage());
    assertEquals(Set.of("lockAcquireTimeoutSeconds"), properties(timeout));
    ValidationFailure waiters = single(configureWith("lockMaxWaiters", "0"));
    assertEquals("Lock max waiters must be at least 1, got 0.", waiters.getMessage());
    assertEquals(Set.of("lockMaxWaiters"), properties(waiters));
  }

  @Test
  void overlongRunIdAndSourceKeyAreReported() {
    ValidationFailure run = single(configureWith("runId", "r".repeat(1025)));
    assertEquals("Run id is 1025 characters long, over 1024.", run.getMessage());
    assertEquals(Set.of("runId"), properties(run));
    ValidationFailure source = single(configureWith("sourceKey", "s".repeat(2000)));
    assertEquals("Source key is 2000 characters long, over 1024.", source.getMessage());
  }

  @Test
  void badConnectionSettingsAreReported() {
    ValidationFailure props = single(configureWith("hbaseProperties", "a=1,oops"));
    assertEquals("Invalid HBase properties: 'oops' is not key=value", props.getMessage());
    assertEquals(Set.of("hbaseProperties"), properties(props));
    ValidationFailure tx = single(configureWith("transactionService", "thrift://host"));
    assertEquals("Invalid transaction service: 'thrift://host' is neither 'zookeeper' nor 'in-process:<name>'",
        tx.getMessage());
    assertEquals(Set.of("transactionService"), properties(tx));
  }

  @Test
  void everyProblemIsReportedAtOnceNotOneExceptionAtATime() {
    Map<String, String> p = new HashMap<>();
    p.put("dataset", "bad name");
    p.put("rowKeyFields", "nope,tags");
    p.put("retainLast", "0");
    p.put("lockMaxWaiters", "0");
    p.put("columnFamily", "#");
    List<ValidationFailure> failures = configure(p, INPUT);
    Set<String> flagged = failures.stream().flatMap(f -> properties(f).stream()).collect(Collectors.toSet());
    assertEquals(Set.of("dataset", "namespace", "columnFamily", "rowKeyFields", "retainLast", "lockMaxWaiters"), flagged);
    assertEquals(6, failures.size(), () -> messages(failures).toString());
  }

  @Test
  void propertiesHoldingMacrosAreLeftForRuntime() {
    Map<String, String> p = valid();
    p.put("dataset", "${dataset}");
    p.put("rowKeyFields", "${keys}");
    p.put("retainLast", null);
    assertEquals(List.of(), configure(p, Set.of("dataset", "rowKeyFields"), INPUT));
  }

  @Test
  void anUnknownInputSchemaSkipsTheSchemaChecksOnly() {
    Map<String, String> p = valid();
    p.put("rowKeyFields", "anything");
    assertEquals(List.of(), configure(p, null));
    p.put("retainLast", "-2");
    assertEquals(1, configure(p, null).size());
  }

  @Test
  void prepareRunValidatesAgainWithTheRuntimeCollector() {
    Map<String, String> p = valid();
    p.put("rowKeyFields", "missing");
    SnapshotSink sink = new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, p));
    MockFailureCollector collector = new MockFailureCollector("sink");
    FakeContext context = FakeContext.builder().collector(collector).inputSchema(INPUT).build();
    assertThrows(ValidationException.class, () -> sink.prepareRun(context.sinkContext()));
    assertEquals("Row key field 'missing' is not in the input schema.", single(collector.getValidationFailures()).getMessage());
    assertTrue(context.outputs().isEmpty());
  }
}
