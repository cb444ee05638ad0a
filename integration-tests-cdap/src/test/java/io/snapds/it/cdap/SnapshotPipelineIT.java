package io.snapds.it.cdap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cdap.cdap.api.artifact.ArtifactRange;
import io.cdap.cdap.api.artifact.ArtifactScope;
import io.cdap.cdap.api.artifact.ArtifactSummary;
import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.common.conf.Constants;
import io.cdap.cdap.common.id.Id;
import io.cdap.cdap.datapipeline.DataPipelineApp;
import io.cdap.cdap.datapipeline.SmartWorkflow;
import io.cdap.cdap.etl.api.Engine;
import io.cdap.cdap.etl.api.Transform;
import io.cdap.cdap.etl.api.batch.BatchSink;
import io.cdap.cdap.etl.api.batch.BatchSource;
import io.cdap.cdap.etl.api.batch.PostAction;
import io.cdap.cdap.etl.mock.batch.MockSink;
import io.cdap.cdap.etl.mock.batch.MockSource;
import io.cdap.cdap.etl.mock.test.HydratorTestBase;
import io.cdap.cdap.etl.proto.ArtifactSelectorConfig;
import io.cdap.cdap.etl.proto.v2.ETLBatchConfig;
import io.cdap.cdap.etl.proto.v2.ETLPlugin;
import io.cdap.cdap.etl.proto.v2.ETLStage;
import io.cdap.cdap.etl.spark.Compat;
import io.cdap.cdap.internal.app.runtime.artifact.ArtifactRepository;
import io.cdap.cdap.proto.ProgramRunStatus;
import io.cdap.cdap.proto.artifact.AppRequest;
import io.cdap.cdap.proto.artifact.ArtifactRanges;
import io.cdap.cdap.proto.id.ArtifactId;
import io.cdap.cdap.proto.id.NamespaceId;
import io.cdap.cdap.test.ApplicationManager;
import io.cdap.cdap.test.TestBase;
import io.cdap.cdap.test.TestConfiguration;
import io.cdap.cdap.test.WorkflowManager;
import io.snapds.cdap.GoldenCdap;
import io.snapds.dataset.testing.GoldenRecords;
import io.snapds.it.cdap.transforms.FailTransform;
import io.snapds.it.cdap.transforms.GateConfig;
import io.snapds.it.cdap.transforms.GateTransform;
import java.io.File;
import java.lang.reflect.Field;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The packaged plugin (jar and JSON from snapshot-sink-plugin/target, deployed as a CDAP user
 * artifact whose parents are the JSON's) in CDAP 6.11's own DataPipelineApp, on the MapReduce
 * and the Spark engine, against an HBase 2.5 mini cluster in this JVM and a Tephra 0.16.1
 * transaction service in a JVM of its own ({@link SnapdsSide}), which also reads the datasets
 * back through the snapds API for the assertions.
 *
 * <p>One CDAP, one mini cluster and one Tephra service for all scenarios (starting them is most
 * of this class's time); each scenario uses datasets of its own.
 */
public class SnapshotPipelineIT extends HydratorTestBase {
  private static final String CDAP_VERSION = System.getProperty("cdap.version", "6.11.0");
  /** The parent the plugin JSON names: system:cdap-data-pipeline[6.0.0,7.0.0). */
  private static final ArtifactId PIPELINE_ARTIFACT = NamespaceId.SYSTEM.artifact("cdap-data-pipeline", CDAP_VERSION);
  private static final ArtifactSummary PIPELINE =
      new ArtifactSummary("cdap-data-pipeline", CDAP_VERSION, ArtifactScope.SYSTEM);
  private static final String PLUGIN_NAME = "snapshot-sink-plugin";
  private static final String PLUGIN_VERSION = System.getProperty("plugin.version");
  private static final ArtifactSelectorConfig TEST_STAGES = new ArtifactSelectorConfig("USER", "snapds-test-stages", "1.0.0");
  private static final long T1 = 1_764_000_000_000L;
  private static final long T2 = T1 + 86_400_000L;

  static final Schema SCHEMA = Schema.recordOf("person",
      Schema.Field.of("name", Schema.of(Schema.Type.STRING)),
      Schema.Field.of("city", Schema.of(Schema.Type.STRING)),
      Schema.Field.of("tags", Schema.arrayOf(Schema.of(Schema.Type.STRING))));

  @ClassRule
  public static final TestConfiguration CONFIG =
      new TestConfiguration(Constants.AppFabric.SPARK_COMPAT, Compat.SPARK_COMPAT);

  private static HBaseTestingUtility hbase;
  private static SnapdsSide snapds;
  private static String quorum;

  @BeforeClass
  public static void startEverything() throws Exception {
    setupBatchArtifacts(PIPELINE_ARTIFACT, DataPipelineApp.class);
    addPluginArtifact(NamespaceId.DEFAULT.artifact("snapds-test-stages", "1.0.0"), PIPELINE_ARTIFACT,
        GateTransform.class, FailTransform.class, GateConfig.class);
    deployThePackagedPlugin();
    hbase = new HBaseTestingUtility();
    hbase.startMiniCluster();
    quorum = "localhost:" + hbase.getZkCluster().getClientPort();
    snapds = SnapdsSide.start(quorum, Path.of(System.getProperty("plugin.jar")),
        Path.of(System.getProperty("snapds.side.dir")));
  }

  @AfterClass
  public static void stopEverything() throws Exception {
    keepTheProgramLogs();
    if (snapds != null) {
      snapds.close();
    }
    if (hbase != null) {
      hbase.shutdownMiniCluster();
    }
  }

  /** CDAP's program logs (Avro, readable with {@code strings}) outlive its temporary folder. */
  private static void keepTheProgramLogs() throws java.io.IOException {
    Path target = Path.of(System.getProperty("snapds.side.dir")).resolveSibling("cdap-logs");
    try (java.util.stream.Stream<Path> files = Files.walk(TMP_FOLDER.getRoot().toPath())) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().contains("/logs/default/") && Files.isRegularFile(p))::iterator) {
        Path copy = target.resolve(f.getParent().getParent().getFileName() + "-" + f.getFileName());
        Files.createDirectories(target);
        Files.copy(f, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /**
   * As {@code load artifact <jar> config-file <json>} does: the jar as built, the parents and
   * properties (widgets, docs) as the JSON has them. CDAP inspects the jar here: the classes of
   * its exported packages, its lib/.
   */
  private static void deployThePackagedPlugin() throws Exception {
    Path jar = Path.of(System.getProperty("plugin.jar"));
    Path json = Path.of(System.getProperty("plugin.json"));
    if (!Files.isRegularFile(jar) || !Files.isRegularFile(json)) {
      throw new IllegalStateException("the packaged plugin " + jar + " and " + json + " must exist: build with "
          + "mvn verify -pl integration-tests-cdap -am (the plugin's package phase makes them)");
    }
    @SuppressWarnings("deprecation")
    JsonObject pluginJson = new JsonParser().parse(Files.readString(json)).getAsJsonObject();
    Set<ArtifactRange> parents = new HashSet<>();
    for (JsonElement p : pluginJson.getAsJsonArray("parents")) {
      parents.add(ArtifactRanges.parseArtifactRange(p.getAsString()));
    }
    Map<String, String> properties = new HashMap<>();
    for (Map.Entry<String, JsonElement> e : pluginJson.getAsJsonObject("properties").entrySet()) {
      properties.put(e.getKey(), e.getValue().getAsString());
    }
    Field injector = TestBase.class.getDeclaredField("injector");
    injector.setAccessible(true);
    ArtifactRepository repository = ((com.google.inject.Injector) injector.get(null)).getInstance(ArtifactRepository.class);
    repository.addArtifact(Id.Artifact.from(Id.Namespace.DEFAULT, PLUGIN_NAME, PLUGIN_VERSION), jar.toFile(),
        parents, null, properties);
  }

  // ---- scenarios, each on both engines ----

  @Test
  public void mapReduceRunPublishesOnceAndNeitherARetryNorAFailedRunPublishes() throws Exception {
    runPublishesOnceAndNeitherARetryNorAFailedRunPublishes(Engine.MAPREDUCE);
  }

  @Test
  public void sparkRunPublishesOnceAndNeitherARetryNorAFailedRunPublishes() throws Exception {
    runPublishesOnceAndNeitherARetryNorAFailedRunPublishes(Engine.SPARK);
  }

  @Test
  public void mapReduceTwoSinksOfOnePipelineOnOneDatasetEachPublishOnce() throws Exception {
    twoSinksOfOnePipelineOnOneDatasetEachPublishOnce(Engine.MAPREDUCE);
  }

  @Test
  public void sparkTwoSinksOfOnePipelineOnOneDatasetEachPublishOnce() throws Exception {
    twoSinksOfOnePipelineOnOneDatasetEachPublishOnce(Engine.SPARK);
  }

  @Test
  public void mapReduceStagedSinksArePublishedTogetherByThePostRunActionOnce() throws Exception {
    stagedSinksArePublishedTogetherByThePostRunActionOnce(Engine.MAPREDUCE);
  }

  @Test
  public void sparkStagedSinksArePublishedTogetherByThePostRunActionOnce() throws Exception {
    stagedSinksArePublishedTogetherByThePostRunActionOnce(Engine.SPARK);
  }

  @Test
  public void mapReduceSourceReadsItsPinnedSnapshotWhileAnotherPipelinePublishes() throws Exception {
    sourceReadsItsPinnedSnapshotWhileAnotherPipelinePublishes(Engine.MAPREDUCE);
  }

  @Test
  public void sparkSourceReadsItsPinnedSnapshotWhileAnotherPipelinePublishes() throws Exception {
    sourceReadsItsPinnedSnapshotWhileAnotherPipelinePublishes(Engine.SPARK);
  }

  /**
   * The interoperability proof of #15 in a real pipeline: one dataset written through the
   * SnapshotDataset sink from the golden records (every dataset type, nulls, extremes, negative
   * decimals, dates and timestamps before 1970, microseconds), with no schema typed anywhere, and
   * read back by every reader the project has, each in its own engine:
   * <ul>
   *   <li>the snapds Java API (in the snapds JVM, each snapshot decoded with the schema it records);</li>
   *   <li>the SnapshotDataset source in a second pipeline (no schema configured: the dataset's);</li>
   *   <li>Hive 4.1 (a JVM of its own), {@code SELECT *} on a table created with no column list;</li>
   *   <li>a MapReduce job (LocalJobRunner, same JVM as Hive) over {@code SnapshotRecordInputFormat};</li>
   *   <li>{@code snapds scan --json} against this cluster ({@code --zookeeper}, {@code --tx-service}).</li>
   * </ul>
   * Every field of every record is compared with the input in one canonical text per type
   * ({@link ValueText} of GoldenRecords' Java value); the readers outside the JVMs convert from
   * their engine's form ({@link ReaderJvms}). Each reader read the snapshot the run published.
   */
  @Test
  public void mapReduceGoldenRecordsWrittenByTheSinkReadBackEqualThroughEveryReader() throws Exception {
    String dataset = "golden_mr";
    Map<String, String> sink = sinkProperties(dataset);
    sink.remove("schemaMode"); // auto: the sink creates the dataset with the input's schema
    sink.put("rowKeyFields", "id");
    ETLBatchConfig writer = ETLBatchConfig.builder()
        .addStage(new ETLStage("source", MockSource.getPlugin("in_golden", GoldenCdap.SCHEMA)))
        .addStage(new ETLStage("snapshots", snapshotSink(sink)))
        .addConnection("source", "snapshots")
        .setEngine(Engine.MAPREDUCE)
        .build();
    ApplicationManager writing = deploy("golden-writer", writer);
    List<StructuredRecord> input = new ArrayList<>();
    for (int i = 0; i < GoldenRecords.records().size(); i++) {
      input.add(GoldenCdap.record(GoldenCdap.SCHEMA, i, Map.of()));
    }
    MockSource.writeInput(getDataset("in_golden"), input);
    writing.getWorkflowManager(SmartWorkflow.NAME).startAndWaitForGoodRun(args(T1), ProgramRunStatus.COMPLETED, 3,
        TimeUnit.MINUTES);

    // the snapshot the run published: the dataset's only one, and the id its sink recorded
    DatasetDump after = snapds.dump("default", dataset);
    assertEquals(after.toString(), 1, after.snapshots().size());
    assertEquals("COMMITTED", after.snapshots().get(0).get("state"));
    String published = after.current().orElseThrow();
    assertEquals("the id the sink's initialize recorded is the published snapshot", Long.parseLong(published),
        recordedSnapshotId("golden-writer", "snapshots"));

    // the one expected-values table: GoldenRecords, as text per field
    List<Map<String, String>> expected = new ArrayList<>();
    for (Map<String, Object> r : GoldenRecords.records()) {
      Map<String, String> row = new LinkedHashMap<>();
      r.forEach((k, v) -> row.put(k, ValueText.of(v)));
      expected.add(row);
    }

    // reader 1: the snapds Java API
    JsonObject typed = snapds.typed("default", dataset);
    JsonObject schemas = typed.getAsJsonObject("schemas");
    assertEquals(typed.toString(), 1, schemas.entrySet().size());
    String snapshot = schemas.entrySet().iterator().next().getKey();
    assertEquals("the snapshot the Java API read", published, snapshot);
    assertEquals("the dataset got the input's schema", GoldenRecords.schemaText(),
        schemas.get(snapshot).getAsString().replaceAll("\\d+:", ""));
    assertReadTheInput("the Java API", expected, textRows(typed.getAsJsonObject("rows").getAsJsonArray(snapshot)));

    // reader 2: the SnapshotDataset source, no schema configured
    Map<String, String> source = new LinkedHashMap<>(connection());
    source.put("referenceName", dataset);
    source.put("dataset", dataset);
    ETLBatchConfig reader = ETLBatchConfig.builder()
        .addStage(new ETLStage("snapshot-source", new ETLPlugin("SnapshotDataset", BatchSource.PLUGIN_TYPE, source,
            pluginArtifact())))
        .addStage(new ETLStage("records", MockSink.getPlugin("out_golden")))
        .addConnection("snapshot-source", "records")
        .setEngine(Engine.MAPREDUCE)
        .build();
    deploy("golden-reader", reader).getWorkflowManager(SmartWorkflow.NAME)
        .startAndWaitForGoodRun(args(T1), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);
    List<Map<String, String>> read = new ArrayList<>();
    for (StructuredRecord r : MockSink.readOutput(getDataset("out_golden"))) {
      Map<String, String> row = new LinkedHashMap<>();
      // the CDAP values in GoldenRecords' Java forms, through CDAP's own getters
      GoldenCdap.values(r, List.of()).forEach((k, v) -> row.put(k, v == null ? null : v.toString()));
      read.add(row);
    }
    assertReadTheInput("the CDAP source", expected, read);
    assertEquals("the snapshot the CDAP source read (its stage's gauge)", Long.parseLong(published),
        recordedSnapshotId("golden-reader", "snapshot-source"));

    // reader 3: the command line
    Path work = Path.of(System.getProperty("snapds.side.dir"));
    ReaderJvms.Read cli = ReaderJvms.commandLine(quorum, "default:" + dataset, work);
    assertEquals("the snapshot snapds scan read", List.of(published), cli.snapshots());
    assertReadTheInput("snapds scan --json", expected, cli.rows());

    // readers 4 and 5: Hive (a table with no column list) and MapReduce, in a JVM of their own
    Map<String, ReaderJvms.Read> others = ReaderJvms.hiveAndMapReduce(quorum, "default:" + dataset, work);
    ReaderJvms.Read hive = others.get("Hive");
    assertEquals("Hive's columns and types come from the dataset schema", List.of("id bigint", "flag boolean", "i int",
        "l bigint", "f float", "d double", "s string", "b binary", "amount decimal(18,4)", "day date", "at timestamp",
        "at_tz timestamp"), hive.columns());
    assertEquals("the snapshot Hive's query pinned", List.of(published), hive.snapshots());
    assertReadTheInput("Hive", expected, hive.rows());
    ReaderJvms.Read mapReduce = others.get("MapReduce");
    assertEquals("the snapshot of every split of the MapReduce job", List.of(published), mapReduce.snapshots());
    assertReadTheInput("MapReduce", expected, mapReduce.rows());
  }

  /**
   * Every field of every record the reader got equals the input's (records matched by id); a
   * mismatch names the record, the field, the reader and both values.
   */
  private static void assertReadTheInput(String reader, List<Map<String, String>> expected,
      List<Map<String, String>> rows) {
    List<Map<String, String>> byId = new ArrayList<>(rows);
    byId.sort(java.util.Comparator.comparing(m -> Long.parseLong(m.get("id"))));
    assertEquals(reader + " read " + byId, expected.size(), byId.size());
    for (int i = 0; i < expected.size(); i++) {
      Map<String, String> want = expected.get(i);
      Map<String, String> got = byId.get(i);
      assertEquals(reader + ": the fields of record id=" + want.get("id"), want.keySet(), got.keySet());
      for (String field : want.keySet()) {
        if (!java.util.Objects.equals(want.get(field), got.get(field))) {
          fail("record id=" + want.get("id") + ", field '" + field + "': " + reader + " read <" + got.get(field)
              + ">, the input has <" + want.get(field) + ">");
        }
      }
    }
  }

  /** Rows of the golden fields; a field the JSON leaves out (Gson drops nulls) is null. */
  private static List<Map<String, String>> textRows(com.google.gson.JsonArray rows) {
    List<Map<String, String>> out = new ArrayList<>();
    for (JsonElement row : rows) {
      JsonObject fields = row.getAsJsonObject();
      Map<String, String> values = new LinkedHashMap<>();
      for (String name : GoldenRecords.names()) {
        JsonElement v = fields.get(name);
        values.put(name, v == null || v.isJsonNull() ? null : v.getAsString());
      }
      out.add(values);
    }
    return out;
  }

  /**
   * An HBase that cannot be reached fails the run from prepareRun (HBase's own client defaults
   * would retry for many minutes); the bound here is what the plugin's client settings promise
   * with room to spare, not a speed measurement.
   */
  @Test
  public void anUnreachableHBaseFailsTheRunInsteadOfHoldingIt() throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    String dataset = "unreachable";
    Map<String, String> sink = sinkProperties(dataset);
    sink.put("zookeeperQuorum", "127.0.0.1:" + deadPort);
    ETLBatchConfig config = ETLBatchConfig.builder()
        .addStage(new ETLStage("source", MockSource.getPlugin("in_unreachable", SCHEMA)))
        .addStage(new ETLStage("snapshots", snapshotSink(sink)))
        .addConnection("source", "snapshots")
        .setEngine(Engine.MAPREDUCE)
        .build();
    ApplicationManager app = deploy("unreachable", config);
    MockSource.writeInput(getDataset("in_unreachable"), records("u", 2));
    app.getWorkflowManager(SmartWorkflow.NAME)
        .startAndWaitForRun(args(T1), ProgramRunStatus.FAILED, 3, TimeUnit.MINUTES);
    try {
      snapds.dump("default", dataset);
      fail("nothing may have been created on the real cluster");
    } catch (IllegalStateException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("DatasetNotFoundException"));
    }
  }

  private void runPublishesOnceAndNeitherARetryNorAFailedRunPublishes(Engine engine) throws Exception {
    String e = tag(engine);
    String dataset = "publish_" + e;
    String app = "publish-" + e;
    ETLBatchConfig config = ETLBatchConfig.builder()
        .addStage(new ETLStage("source", MockSource.getPlugin("in_publish_" + e, SCHEMA)))
        .addStage(new ETLStage("snapshots", snapshotSink(sinkProperties(dataset))))
        .addConnection("source", "snapshots")
        .setEngine(engine)
        .build();
    ApplicationManager manager = deploy(app, config);
    List<StructuredRecord> input = records("p" + e, 5);
    MockSource.writeInput(getDataset("in_publish_" + e), input);
    WorkflowManager workflow = manager.getWorkflowManager(SmartWorkflow.NAME);
    workflow.startAndWaitForGoodRun(args(T1), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);

    DatasetDump after = snapds.dump("default", dataset);
    assertEquals(after.toString(), 1, after.snapshots().size());
    Map<String, String> published = after.snapshots().get(0);
    assertEquals("COMMITTED", published.get("state"));
    assertEquals(published.get("id"), after.current().orElseThrow());
    assertEquals("default." + app + ".snapshots." + T1, published.get("runId"));
    assertEquals("5", published.get("rowCount"));
    assertEquals(cells(input), after.rows(published.get("id")));
    assertEquals("the id initialize recorded (the stage's snapshot.id gauge) is the published snapshot",
        Long.parseLong(published.get("id")), recordedSnapshotId(app, "snapshots"));

    // the same logical run again (a retry): nothing more is published
    workflow.startAndWaitForGoodRun(args(T1), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);
    DatasetDump retried = snapds.dump("default", dataset);
    assertEquals(retried.toString(), 1, retried.snapshots().size());
    assertEquals(published.get("id"), retried.current().orElseThrow());
    assertEquals(cells(input), retried.rows(published.get("id")));

    // a run of another pipeline on the dataset whose later stage fails: nothing is published
    String failing = "publish-failing-" + e;
    ETLBatchConfig failingConfig = ETLBatchConfig.builder()
        .addStage(new ETLStage("source", MockSource.getPlugin("in_failing_" + e, SCHEMA)))
        .addStage(new ETLStage("snapshots", snapshotSink(sinkProperties(dataset))))
        .addStage(new ETLStage("fail", new ETLPlugin(FailTransform.NAME, Transform.PLUGIN_TYPE,
            Map.of("failOn", "f" + e + "-3"), TEST_STAGES)))
        .addStage(new ETLStage("checked", MockSink.getPlugin("out_failing_" + e)))
        .addConnection("source", "snapshots")
        .addConnection("source", "fail")
        .addConnection("fail", "checked")
        .setEngine(engine)
        .build();
    ApplicationManager failingApp = deploy(failing, failingConfig);
    MockSource.writeInput(getDataset("in_failing_" + e), records("f" + e, 5));
    failingApp.getWorkflowManager(SmartWorkflow.NAME)
        .startAndWaitForRun(args(T2), ProgramRunStatus.FAILED, 3, TimeUnit.MINUTES);
    DatasetDump failed = snapds.dump("default", dataset);
    assertEquals(failed.toString(), published.get("id"), failed.current().orElseThrow());
    assertEquals(failed.toString(), 1, failed.snapshotsIn("COMMITTED").size());
    assertEquals(cells(input), failed.rows(published.get("id")));
    List<Map<String, String>> aborted = failed.snapshotsIn("ABORTED");
    assertEquals(failed.toString(), 1, aborted.size());
    assertEquals("default." + failing + ".snapshots." + T2, aborted.get(0).get("runId"));
  }

  private void twoSinksOfOnePipelineOnOneDatasetEachPublishOnce(Engine engine) throws Exception {
    String e = tag(engine);
    String dataset = "twosinks_" + e;
    String app = "twosinks-" + e;
    Map<String, String> keyed = sinkProperties(dataset);
    keyed.put("sourceKey", "feed-b");
    ETLBatchConfig config = ETLBatchConfig.builder()
        .addStage(new ETLStage("source", MockSource.getPlugin("in_twosinks_" + e, SCHEMA)))
        .addStage(new ETLStage("snap-a", snapshotSink(sinkProperties(dataset))))
        .addStage(new ETLStage("snap-b", snapshotSink(keyed)))
        .addConnection("source", "snap-a")
        .addConnection("source", "snap-b")
        .setEngine(engine)
        .build();
    ApplicationManager manager = deploy(app, config);
    List<StructuredRecord> input = records("t" + e, 4);
    MockSource.writeInput(getDataset("in_twosinks_" + e), input);
    WorkflowManager workflow = manager.getWorkflowManager(SmartWorkflow.NAME);
    workflow.startAndWaitForGoodRun(args(T1), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);

    DatasetDump after = snapds.dump("default", dataset);
    List<Map<String, String>> committed = after.snapshotsIn("COMMITTED");
    assertEquals(after.toString(), 2, committed.size());
    assertEquals(after.toString(), 2, after.snapshots().size());
    Map<String, String> byRunId = new TreeMap<>();
    for (Map<String, String> s : committed) {
      byRunId.put(s.get("runId"), s.get("sourceKey"));
      assertEquals(cells(input), after.rows(s.get("id")));
    }
    Map<String, String> expected = new TreeMap<>();
    expected.put("default." + app + ".snap-a." + T1, null);
    expected.put("default." + app + ".snap-b." + T1, "feed-b");
    assertEquals(expected, byRunId);

    workflow.startAndWaitForGoodRun(args(T1), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);
    DatasetDump retried = snapds.dump("default", dataset);
    assertEquals("a re-run of the pipeline publishes neither sink again: " + retried, 2, retried.snapshots().size());
    assertEquals(after.current(), retried.current());
  }

  /**
   * Write, audit, publish across two datasets: sinks with publishMode 'stage' leave both datasets'
   * current snapshots where they were (the staged rows readable by id only); the SnapshotPublish
   * post-run action makes both current together; a re-run of the same logical run changes nothing;
   * without the action the stages stay staged; an action that finds no stage for one of its
   * datasets publishes none of them.
   */
  private void stagedSinksArePublishedTogetherByThePostRunActionOnce(Engine engine) throws Exception {
    String e = tag(engine);
    String orders = "wap_orders_" + e;
    String lines = "wap_lines_" + e;

    // the current snapshots: published by a plain run
    ApplicationManager base = deploy("wap-base-" + e, twoDatasets("in_wap_old_" + e, orders, lines, "publish",
        null, engine));
    List<StructuredRecord> old = records("old" + e, 3);
    MockSource.writeInput(getDataset("in_wap_old_" + e), old);
    base.getWorkflowManager(SmartWorkflow.NAME).startAndWaitForGoodRun(args(T1), ProgramRunStatus.COMPLETED, 3,
        TimeUnit.MINUTES);
    String oldOrders = snapds.dump("default", orders).current().orElseThrow();
    String oldLines = snapds.dump("default", lines).current().orElseThrow();

    // staged, with no action: nothing becomes current, the stages are readable by id
    String noAction = "wap-noaction-" + e;
    ApplicationManager staging = deploy(noAction, twoDatasets("in_wap_unpub_" + e, orders, lines, "stage", null,
        engine));
    List<StructuredRecord> unpublished = records("unpub" + e, 2);
    MockSource.writeInput(getDataset("in_wap_unpub_" + e), unpublished);
    staging.getWorkflowManager(SmartWorkflow.NAME).startAndWaitForGoodRun(args(T2), ProgramRunStatus.COMPLETED, 3,
        TimeUnit.MINUTES);
    for (String[] d : new String[][] {{orders, oldOrders, "orders"}, {lines, oldLines, "lines"}}) {
      DatasetDump dump = snapds.dump("default", d[0]);
      assertEquals("a staged run moves no current snapshot: " + dump, d[1], dump.current().orElseThrow());
      assertEquals(cells(old), dump.rows(d[1]));
      Map<String, String> stage = single(dump.snapshotsIn("STAGED"), dump);
      assertEquals("default." + noAction + "." + d[2] + "." + T2, stage.get("runId"));
      assertEquals("2", stage.get("rowCount"));
      assertEquals("the stage reads by id as the run's rows", cells(unpublished), dump.rows(stage.get("id")));
    }

    // staged, then published together by the post-run action
    String app = "wap-" + e;
    WorkflowManager workflow = deploy(app, twoDatasets("in_wap_" + e, orders, lines, "stage",
        publishAction("default:" + orders + "," + lines), engine)).getWorkflowManager(SmartWorkflow.NAME);
    List<StructuredRecord> input = records("new" + e, 4);
    MockSource.writeInput(getDataset("in_wap_" + e), input);
    workflow.startAndWaitForGoodRun(args(T2), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);
    Map<String, String> published = new TreeMap<>();
    for (String[] d : new String[][] {{orders, "orders"}, {lines, "lines"}}) {
      DatasetDump dump = snapds.dump("default", d[0]);
      Map<String, String> run = single(dump.snapshots().stream()
          .filter(s -> ("default." + app + "." + d[1] + "." + T2).equals(s.get("runId"))).toList(), dump);
      assertEquals(dump.toString(), "COMMITTED", run.get("state"));
      assertEquals("the action made the run's stage current: " + dump, run.get("id"), dump.current().orElseThrow());
      assertEquals(cells(input), dump.rows(dump.current().orElseThrow()));
      assertEquals("the other pipeline's stage stays staged: " + dump, 1, dump.snapshotsIn("STAGED").size());
      published.put(d[0], run.get("id"));
    }

    // the same logical run again: the sinks stage nothing, the action publishes nothing new
    workflow.startAndWaitForGoodRun(args(T2), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);
    for (String d : List.of(orders, lines)) {
      DatasetDump dump = snapds.dump("default", d);
      assertEquals(dump.toString(), published.get(d), dump.current().orElseThrow());
      assertEquals("old, unpublished stage, published stage: " + dump, 3, dump.snapshots().size());
      assertEquals(cells(input), dump.rows(published.get(d)));
    }

    // the action lists a dataset this run did not stage: it publishes neither (CDAP logs its failure only)
    String halfApp = "wap-half-" + e;
    ETLBatchConfig halfConfig = ETLBatchConfig.builder()
        .addStage(new ETLStage("source", MockSource.getPlugin("in_wap_half_" + e, SCHEMA)))
        .addStage(new ETLStage("orders", snapshotSink(staging(orders))))
        .addConnection("source", "orders")
        .addPostAction(publishAction(orders + "," + lines))
        .setEngine(engine)
        .build();
    ApplicationManager halfManager = deploy(halfApp, halfConfig);
    List<StructuredRecord> half = records("half" + e, 1);
    MockSource.writeInput(getDataset("in_wap_half_" + e), half);
    halfManager.getWorkflowManager(SmartWorkflow.NAME).startAndWaitForGoodRun(args(T2), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);
    DatasetDump halfOrders = snapds.dump("default", orders);
    assertEquals("nothing published: " + halfOrders, published.get(orders), halfOrders.current().orElseThrow());
    Map<String, String> halfStage = single(halfOrders.snapshots().stream()
        .filter(s -> ("default." + halfApp + ".orders." + T2).equals(s.get("runId"))).toList(), halfOrders);
    assertEquals(halfOrders.toString(), "STAGED", halfStage.get("state"));
    assertEquals(cells(half), halfOrders.rows(halfStage.get("id")));
    assertEquals(published.get(lines), snapds.dump("default", lines).current().orElseThrow());
  }

  private static ETLBatchConfig twoDatasets(String input, String orders, String lines, String publishMode,
      ETLStage action, Engine engine) {
    Map<String, String> o = sinkProperties(orders);
    Map<String, String> l = sinkProperties(lines);
    o.put("publishMode", publishMode);
    l.put("publishMode", publishMode);
    ETLBatchConfig.Builder builder = ETLBatchConfig.builder()
        .addStage(new ETLStage("source", MockSource.getPlugin(input, SCHEMA)))
        .addStage(new ETLStage("orders", snapshotSink(o)))
        .addStage(new ETLStage("lines", snapshotSink(l)))
        .addConnection("source", "orders")
        .addConnection("source", "lines")
        .setEngine(engine);
    if (action != null) {
      builder.addPostAction(action);
    }
    return builder.build();
  }

  private static Map<String, String> staging(String dataset) {
    Map<String, String> p = sinkProperties(dataset);
    p.put("publishMode", "stage");
    return p;
  }

  private static ETLStage publishAction(String datasets) {
    Map<String, String> p = connection();
    p.put("datasets", datasets);
    return new ETLStage("publish", new ETLPlugin("SnapshotPublish", PostAction.PLUGIN_TYPE, p, pluginArtifact()));
  }

  private static Map<String, String> single(List<Map<String, String>> snapshots, DatasetDump dump) {
    assertEquals("one snapshot expected: " + dump, 1, snapshots.size());
    return snapshots.get(0);
  }

  private void sourceReadsItsPinnedSnapshotWhileAnotherPipelinePublishes(Engine engine) throws Exception {
    String e = tag(engine);
    String read = "pinned_" + e;
    String copy = "pinned_copy_" + e;
    Map<String, String> retainOne = sinkProperties(read);
    retainOne.put("retainLast", "1");
    ApplicationManager first = deploy("pinned-first-" + e, writer("in_pinned1_" + e, retainOne, engine));
    List<StructuredRecord> before = records("old" + e, 6);
    MockSource.writeInput(getDataset("in_pinned1_" + e), before);
    first.getWorkflowManager(SmartWorkflow.NAME).startAndWaitForGoodRun(args(T1), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);
    String s1 = snapds.dump("default", read).current().orElseThrow();

    File gate = TMP_FOLDER.newFolder("gate-" + e);
    Map<String, String> source = new LinkedHashMap<>(connection());
    source.put("referenceName", read);
    source.put("dataset", read);
    source.put("schema", SCHEMA.toString());
    ETLBatchConfig readerConfig = ETLBatchConfig.builder()
        .addStage(new ETLStage("snapshot-source", new ETLPlugin("SnapshotDataset", BatchSource.PLUGIN_TYPE, source, pluginArtifact())))
        .addStage(new ETLStage("gate", new ETLPlugin(GateTransform.NAME, Transform.PLUGIN_TYPE,
            Map.of("dir", gate.getAbsolutePath()), TEST_STAGES)))
        .addStage(new ETLStage("copy", snapshotSink(sinkProperties(copy))))
        .addStage(new ETLStage("records", MockSink.getPlugin("out_pinned_" + e)))
        .addConnection("snapshot-source", "gate")
        .addConnection("gate", "copy")
        .addConnection("gate", "records")
        .setEngine(engine)
        .build();
    WorkflowManager reader = deploy("pinned-reader-" + e, readerConfig).getWorkflowManager(SmartWorkflow.NAME);
    reader.start(args(T1));
    awaitFile(gate.toPath().resolve("entered"), reader);

    // while the reader is in the middle of S1: another pipeline publishes S2, which expires S1
    ApplicationManager second = deploy("pinned-second-" + e, writer("in_pinned2_" + e, retainOne, engine));
    List<StructuredRecord> after = records("new" + e, 3);
    MockSource.writeInput(getDataset("in_pinned2_" + e), after);
    second.getWorkflowManager(SmartWorkflow.NAME).startAndWaitForGoodRun(args(T2), ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);
    snapds.cleanup("default", read);
    DatasetDump published = snapds.dump("default", read);
    String s2 = published.current().orElseThrow();
    assertNotEquals(s1, s2);
    assertEquals(cells(after), published.rows(s2));

    Files.createFile(gate.toPath().resolve("open"));
    reader.waitForRun(ProgramRunStatus.COMPLETED, 3, TimeUnit.MINUTES);

    DatasetDump copied = snapds.dump("default", copy);
    assertEquals(copied.toString(), 1, copied.snapshots().size());
    assertEquals("the copy holds exactly the pinned snapshot's rows", cells(before),
        copied.rows(copied.current().orElseThrow()));
    List<StructuredRecord> out = MockSink.readOutput(getDataset("out_pinned_" + e));
    assertEquals("the source decoded every field of every row of the pinned snapshot", cells(before), cells(out));
    assertEquals("the snapshot the source says it read (its stage's gauge)", Long.parseLong(s1),
        recordedSnapshotId("pinned-reader-" + e, "snapshot-source"));
  }

  // ---- helpers ----

  private static ETLBatchConfig writer(String input, Map<String, String> sink, Engine engine) {
    return ETLBatchConfig.builder()
        .addStage(new ETLStage("source", MockSource.getPlugin(input, SCHEMA)))
        .addStage(new ETLStage("snapshots", snapshotSink(sink)))
        .addConnection("source", "snapshots")
        .setEngine(engine)
        .build();
  }

  private static String tag(Engine engine) {
    return engine == Engine.MAPREDUCE ? "mr" : "spark";
  }

  private static Map<String, String> args(long logicalStartTime) {
    return Map.of("logical.start.time", Long.toString(logicalStartTime));
  }

  private static Map<String, String> connection() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("zookeeperQuorum", quorum);
    p.put("transactionService", "zookeeper");
    return p;
  }

  private static Map<String, String> sinkProperties(String dataset) {
    Map<String, String> p = connection();
    p.put("referenceName", dataset);
    p.put("dataset", dataset);
    p.put("rowKeyFields", "name");
    p.put("schemaMode", "bytes"); // SCHEMA has an array, which no dataset type holds
    return p;
  }

  private static ArtifactSelectorConfig pluginArtifact() {
    return new ArtifactSelectorConfig("USER", PLUGIN_NAME, PLUGIN_VERSION);
  }

  private static ETLPlugin snapshotSink(Map<String, String> properties) {
    return new ETLPlugin("SnapshotDataset", BatchSink.PLUGIN_TYPE, properties, pluginArtifact());
  }

  private ApplicationManager deploy(String name, ETLBatchConfig config) throws Exception {
    return deployApplication(NamespaceId.DEFAULT.app(name), new AppRequest<>(PIPELINE, config));
  }

  private static List<StructuredRecord> records(String prefix, int n) {
    List<StructuredRecord> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(StructuredRecord.builder(SCHEMA).set("name", prefix + "-" + i).set("city", "city " + i)
          .set("tags", List.of("t" + i, "common")).build());
    }
    return out;
  }

  /** Records as the cells the sink stores: strings as they are, the array as its JSON text. */
  private static Set<Map<String, String>> cells(List<StructuredRecord> records) {
    return records.stream().map(r -> {
      Map<String, String> cells = new TreeMap<>();
      cells.put("name", r.get("name"));
      cells.put("city", r.get("city"));
      List<?> tags = r.get("tags");
      cells.put("tags", tags.stream().map(t -> "\"" + t + "\"").collect(Collectors.joining(",", "[", "]")));
      return cells;
    }).collect(Collectors.toSet());
  }

  /**
   * The stage's {@code snapshot.id} gauge: set by a sink's initialize in every task (the snapshot
   * it writes), by a source's onRunFinish (the snapshot it read); 0 if unset after a minute.
   */
  private long recordedSnapshotId(String app, String stage) throws Exception {
    Map<String, String> tags = Map.of(Constants.Metrics.Tag.NAMESPACE, NamespaceId.DEFAULT.getNamespace(),
        Constants.Metrics.Tag.APP, app);
    String metric = "user." + stage + ".snapshot.id";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    long value = getMetricsManager().getTotalMetric(tags, metric);
    while (value == 0 && System.nanoTime() < deadline) {
      Thread.sleep(200);
      value = getMetricsManager().getTotalMetric(tags, metric);
    }
    return value;
  }

  private static void awaitFile(Path file, WorkflowManager run) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(6);
    while (!Files.exists(file)) {
      if (!run.getHistory(ProgramRunStatus.FAILED).isEmpty()) {
        throw new AssertionError("the reader pipeline failed before it reached its gate (see target/cdap-logs)");
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(file + " did not appear: the reader pipeline never reached its gate");
      }
      Thread.sleep(100);
    }
  }
}
