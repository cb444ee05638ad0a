package io.snapds.cdap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.validation.CauseAttributes;
import io.cdap.cdap.etl.api.validation.ValidationException;
import io.cdap.cdap.etl.api.validation.ValidationFailure;
import io.cdap.cdap.etl.mock.common.MockPipelineConfigurer;
import io.snapds.dataset.SnapshotId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The source's configurePipeline against CDAP's own MockPipelineConfigurer. */
class SnapshotSourceConfigTest {
  private static final Schema OUTPUT = Schema.recordOf("out",
      Schema.Field.of("id", Schema.of(Schema.Type.LONG)),
      Schema.Field.of("name", Schema.nullableOf(Schema.of(Schema.Type.STRING))));

  private static Map<String, String> valid() {
    Map<String, String> p = new HashMap<>();
    p.put("dataset", "prices");
    p.put("schema", OUTPUT.toString());
    return p;
  }

  private static MockPipelineConfigurer configurer;

  private static List<ValidationFailure> configure(Map<String, String> properties) {
    SnapshotSource source = new SnapshotSource(PluginConfigs.create(SnapshotSourceConfig.class, properties));
    configurer = new MockPipelineConfigurer(null);
    try {
      source.configurePipeline(configurer);
      return List.of();
    } catch (ValidationException e) {
      return e.getFailures();
    }
  }

  private static List<ValidationFailure> configureWith(String property, String value) {
    Map<String, String> p = valid();
    p.put(property, value);
    return configure(p);
  }

  private static ValidationFailure single(List<ValidationFailure> failures) {
    List<String> messages = new ArrayList<>();
    failures.forEach(f -> messages.add(f.getMessage()));
    assertEquals(1, failures.size(), () -> "failures: " + messages);
    return failures.get(0);
  }

  private static Set<String> properties(ValidationFailure f) {
    return f.getCauses().stream().map(c -> c.getAttribute(CauseAttributes.STAGE_CONFIG))
        .filter(a -> a != null).collect(Collectors.toSet());
  }

  @Test
  void aValidConfigSetsTheOutputSchema() {
    assertEquals(List.of(), configure(valid()));
    assertEquals(OUTPUT, configurer.getOutputSchema());
  }

  @Test
  void snapshotIdAndAsOfAreParsed() {
    Map<String, String> p = valid();
    p.put("snapshotId", "42");
    assertEquals(SnapshotId.of(42), PluginConfigs.create(SnapshotSourceConfig.class, p).snapshotId().orElseThrow());
    p.remove("snapshotId");
    p.put("asOf", "2026-11-30T06:00:00Z");
    assertEquals(Instant.parse("2026-11-30T06:00:00Z"), PluginConfigs.create(SnapshotSourceConfig.class, p).asOf().orElseThrow());
    p.put("asOf", "1700000000000");
    assertEquals(Instant.ofEpochMilli(1_700_000_000_000L), PluginConfigs.create(SnapshotSourceConfig.class, p).asOf().orElseThrow());
    p.remove("asOf");
    p.put("tag", " Release ");
    assertEquals("Release", PluginConfigs.create(SnapshotSourceConfig.class, p).tag().orElseThrow());
    assertEquals(List.of(), configure(p));
  }

  @Test
  void aMissingSchemaIsTheDatasetsSoTheOutputSchemaIsUnknownWhileTheDatasetIsNot() {
    // no zookeeperQuorum: the dataset is not looked at while deploying; prepareRun takes its schema
    Map<String, String> p = valid();
    p.remove("schema");
    SnapshotSource source = new SnapshotSource(PluginConfigs.create(SnapshotSourceConfig.class, p));
    MockPipelineConfigurer configurer = new MockPipelineConfigurer(null);
    source.configurePipeline(configurer);
    assertEquals(null, configurer.getOutputSchema());
  }

  @Test
  void invalidSchemaIsReported() {
    ValidationFailure f = single(configureWith("schema", "{not json"));
    assertTrue(f.getMessage().startsWith("Invalid schema: "), f.getMessage());
    assertEquals(Set.of("schema"), properties(f));
    // an object, not a bare "string": CDAP parses schemas with its Gson 2.3.1, whose strict
    // reader accepts only an object or an array at the top
    assertEquals("Schema must be a record, got ARRAY.",
        single(configureWith("schema", "{\"type\":\"array\",\"items\":\"string\"}")).getMessage());
  }

  @Test
  void unreadableOutputFieldsAreNamed() {
    Schema bad = Schema.recordOf("out", Schema.Field.of("either",
        Schema.unionOf(Schema.of(Schema.Type.INT), Schema.of(Schema.Type.STRING))));
    ValidationFailure f = single(configureWith("schema", bad.toString()));
    assertTrue(f.getMessage().startsWith("Output field 'either' cannot be read: union"), f.getMessage());
    assertEquals("either", f.getCauses().get(0).getAttribute(CauseAttributes.OUTPUT_SCHEMA_FIELD));
  }

  @Test
  void badSnapshotSelectionIsReported() {
    ValidationFailure id = single(configureWith("snapshotId", "latest"));
    assertEquals("Invalid snapshot id 'latest': invalid snapshot id 'latest': expected a positive number.", id.getMessage());
    assertEquals(Set.of("snapshotId"), properties(id));
    ValidationFailure asOf = single(configureWith("asOf", "yesterday"));
    assertTrue(asOf.getMessage().startsWith("Invalid as-of time: invalid time 'yesterday'"), asOf.getMessage());
    assertEquals(Set.of("asOf"), properties(asOf));
    Map<String, String> both = valid();
    both.put("snapshotId", "7");
    both.put("asOf", "1700000000000");
    ValidationFailure f = single(configure(both));
    assertEquals("Both a snapshot id and an as-of time are set.", f.getMessage());
    assertEquals(Set.of("snapshotId", "asOf"), properties(f));
    both.put("tag", "release");
    ValidationFailure all = single(configure(both));
    assertEquals("More than one of snapshot id, tag and as-of time is set: snapshotId, tag, asOf.", all.getMessage());
    assertEquals(Set.of("snapshotId", "tag", "asOf"), properties(all));
    Map<String, String> tagAndTime = valid();
    tagAndTime.put("tag", "release");
    tagAndTime.put("asOf", "1700000000000");
    assertEquals(Set.of("tag", "asOf"), properties(single(configure(tagAndTime))));
  }

  @Test
  void macroPropertiesAreLeftForRuntime() {
    Map<String, String> p = valid();
    p.put("schema", "${schema}");
    p.put("snapshotId", "${id}");
    p.put("asOf", "${time}");
    SnapshotSource source = new SnapshotSource(PluginConfigs.create(SnapshotSourceConfig.class, p,
        Set.of("schema", "snapshotId", "asOf")));
    MockPipelineConfigurer configurer = new MockPipelineConfigurer(null);
    source.configurePipeline(configurer);
    assertEquals(null, configurer.getOutputSchema());
  }

  @Test
  void datasetProblemsAreReportedAsForTheSink() {
    ValidationFailure f = single(configureWith("dataset", ""));
    assertEquals("Dataset name is required.", f.getMessage());
  }
}
