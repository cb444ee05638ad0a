package io.snapds.cdap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.etl.mock.common.MockPipelineConfigurer;
import io.snapds.cdap.codec.RecordCodec;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.mapreduce.SnapshotRecordInputFormat;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.testing.GoldenRecords;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink and the source driven through the lifecycle the pipeline engine uses, on the shared
 * HBase mini cluster and its real Tephra transaction manager: configurePipeline, prepareRun with
 * a fake stage context, a local MapReduce job whose tasks call initialize and transform and write
 * through the output the sink added, then onRunFinish.
 */
@ExtendWith(MiniClusterExtension.class)
class SnapshotSinkPipelineTest {
  private static final String TX = "sink-pipeline-test";

  @TempDir
  Path work;

  @BeforeAll
  static void registerTransactionClient() {
    InProcessTransactionClients.register(TX, MiniCluster.get().txClient());
  }

  @AfterAll
  static void unregister() {
    InProcessTransactionClients.unregister(TX);
  }

  private static Map<String, String> sinkProperties(DatasetId id) {
    MiniCluster cluster = MiniCluster.get();
    Map<String, String> p = new HashMap<>();
    p.put("dataset", id.name());
    p.put("namespace", id.namespace());
    p.put("rowKeyFields", "region,id");
    p.put("retainLast", "10");
    p.put("schemaMode", "bytes"); // AllTypes has arrays, maps, records: no dataset types
    p.put("zookeeperQuorum", cluster.configuration().get(HConstants.ZOOKEEPER_QUORUM) + ":"
        + cluster.configuration().get(HConstants.ZOOKEEPER_CLIENT_PORT));
    p.put("zookeeperParent", cluster.configuration().get(HConstants.ZOOKEEPER_ZNODE_PARENT));
    p.put("transactionService", "in-process:" + TX);
    return p;
  }

  /** The outcome of one pipeline run of the sink. */
  private record Run(boolean jobSucceeded, FakeContext driver, Set<SnapshotId> initialized) {}

  /** configurePipeline, prepareRun, the job, onRunFinish(job succeeded and {@code pipelineSucceeds}). */
  private Run runSink(Map<String, String> properties, long logicalStartTime, List<Integer> records,
      Integer failAt, boolean pipelineSucceeds) throws Exception {
    return runSink(properties, logicalStartTime, records, failAt, pipelineSucceeds, false);
  }

  /** The same; {@code finishOnNewInstance}: onRunFinish runs on another sink instance than prepareRun. */
  private Run runSink(Map<String, String> properties, long logicalStartTime, List<Integer> records,
      Integer failAt, boolean pipelineSucceeds, boolean finishOnNewInstance) throws Exception {
    io.cdap.cdap.api.data.schema.Schema input = PipelineJobs.inputSchema;
    SnapshotSink sink = new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, properties));
    sink.configurePipeline(new MockPipelineConfigurer(input));
    FakeContext driver = FakeContext.builder().stage("snapshots").pipeline("daily")
        .logicalStartTime(logicalStartTime).inputSchema(input).build();
    sink.prepareRun(driver.sinkContext());
    assertEquals(1, driver.outputs().size(), "prepareRun adds one output");
    boolean ok = PipelineJobs.runSinkJob(MiniCluster.get().configuration(), work.resolve("in-" + System.nanoTime()),
        properties, driver, records, failAt);
    SnapshotSink finishing = finishOnNewInstance
        ? new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, properties)) : sink;
    finishing.onRunFinish(ok && pipelineSucceeds, driver.sinkContext());
    return new Run(ok, driver, Set.copyOf(PipelineJobs.INITIALIZED));
  }

  private static List<Object> expected(List<Integer> indexes) {
    return indexes.stream().map(i -> AllTypes.normalize(AllTypes.record(i))).collect(Collectors.toList());
  }

  /** The rows of a snapshot, decoded, in key order. */
  private static List<Object> read(SnapshotDataset dataset, SnapshotId snapshot) {
    RecordCodec codec = RecordCodec.forReading(AllTypes.SCHEMA, "d");
    List<Object> out = new ArrayList<>();
    try (RowScanner rows = dataset.readSnapshot(snapshot).scan(RowScan.all())) {
      for (SnapshotRow row : rows) {
        out.add(AllTypes.normalize(codec.fromRow(row)));
      }
    }
    return out;
  }

  /** Records in the order their row keys sort (what a scan returns). */
  private static List<Object> inKeyOrder(List<Integer> indexes) {
    RecordCodec codec = RecordCodec.forWriting(AllTypes.SCHEMA, "d", List.of("region", "id"));
    return indexes.stream().map(AllTypes::record)
        .sorted((a, b) -> org.apache.hadoop.hbase.util.Bytes.BYTES_COMPARATOR.compare(
            codec.toRow(a).key(), codec.toRow(b).key()))
        .map(AllTypes::normalize).collect(Collectors.toList());
  }


  @Test
  void eachRunPublishesOneSnapshotNamedByTheTransactionIdInitializeRecorded() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("sink_e2e");
    Map<String, String> props = sinkProperties(id);
    props.put("runId", "run-1");
    List<Integer> first = IntStream.range(0, 30).boxed().collect(Collectors.toList());

    // run 1: succeeds; the dataset is created on the way
    Run run1 = runSink(props, 1_000L, first, null, true);
    assertTrue(run1.jobSucceeded());
    assertEquals(1, run1.initialized().size(), "every task writes into the same snapshot");
    SnapshotId written = run1.initialized().iterator().next();
    SnapshotDataset dataset = MiniCluster.get().datasets().open(id);
    SnapshotInfo current = dataset.currentSnapshot().orElseThrow();
    assertEquals(written, current.id(), "the published snapshot is the transaction id initialize recorded");
    assertEquals(Optional.of("run-1"), current.runId());
    assertEquals(SnapshotState.COMMITTED, current.state());
    assertEquals(30, current.rowCount());
    assertEquals(inKeyOrder(first), read(dataset, current.id()));

    // run 2: its job succeeds but the pipeline fails afterwards: nothing is published, rows are
    // left to cleanup
    props.put("runId", "run-2");
    List<Integer> second = IntStream.range(100, 110).boxed().collect(Collectors.toList());
    Run run2 = runSink(props, 2_000L, second, null, false);
    assertTrue(run2.jobSucceeded());
    SnapshotId aborted = run2.initialized().iterator().next();
    assertEquals(current.id(), dataset.currentSnapshot().orElseThrow().id(), "current unchanged");
    assertEquals(SnapshotState.ABORTED, dataset.snapshot(aborted).state());
    assertEquals(second.size(), MiniCluster.get().rawRows(id, aborted), "onRunFinish(false) deletes nothing");

    // run 3: a task fails, so the job fails: nothing is published, rows go
    props.put("runId", "run-3");
    Run run3 = runSink(props, 3_000L, second, 105, true);
    assertFalse(run3.jobSucceeded());
    SnapshotId failed = run3.initialized().iterator().next();
    assertEquals(current.id(), dataset.currentSnapshot().orElseThrow().id(), "current unchanged");
    assertEquals(SnapshotState.ABORTED, dataset.snapshot(failed).state());
    assertTrue(dataset.cleanup().cleaned().containsAll(List.of(aborted, failed)), "cleanup needs no reader wait");
    assertEquals(0, MiniCluster.get().rawRows(id, aborted), "the failed runs' rows are deleted");
    assertEquals(0, MiniCluster.get().rawRows(id, failed));

    // run 4: a retry of run 1 (same run id) writes nothing and publishes no second snapshot
    props.put("runId", "run-1");
    List<SnapshotInfo> before = dataset.snapshots();
    Run retry = runSink(props, 4_000L, second, null, true);
    assertTrue(retry.jobSucceeded());
    assertEquals(Set.of(current.id()), retry.initialized(), "tasks learn the snapshot published before");
    assertEquals(before, dataset.snapshots(), "no snapshot was begun or published");
    assertEquals(current.id(), dataset.currentSnapshot().orElseThrow().id());
    assertEquals(inKeyOrder(first), read(dataset, current.id()));
  }

  @Test
  void onRunFinishOnAnotherInstanceResumesTheRunFromItsArguments() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("sink_resume");
    Map<String, String> props = sinkProperties(id);
    props.put("runId", "published-elsewhere");
    Run run = runSink(props, 1L, List.of(7, 8, 9), null, true, true);
    SnapshotDataset dataset = MiniCluster.get().datasets().open(id);
    SnapshotInfo current = dataset.currentSnapshot().orElseThrow();
    assertEquals(run.initialized(), Set.of(current.id()));
    assertEquals(3, current.rowCount());
    assertEquals(inKeyOrder(List.of(7, 8, 9)), read(dataset, current.id()));

    props.put("runId", "aborted-elsewhere");
    Run failed = runSink(props, 2L, List.of(1, 2), null, false, true);
    SnapshotId abortedId = failed.initialized().iterator().next();
    assertEquals(SnapshotState.ABORTED, dataset.snapshot(abortedId).state());
    assertEquals(current.id(), dataset.currentSnapshot().orElseThrow().id());
  }

  @Test
  void prepareRunReportsAnExistingDatasetWithoutTheColumnFamilyOnThatProperty() {
    DatasetId id = MiniCluster.uniqueDataset("sink_family");
    MiniCluster.get().datasets().create(id, io.snapds.dataset.DatasetProperties.builder().families("x").build());
    SnapshotSink sink = new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, sinkProperties(id)));
    FakeContext driver = FakeContext.builder().inputSchema(AllTypes.SCHEMA).build();
    io.cdap.cdap.etl.api.validation.ValidationException e = org.junit.jupiter.api.Assertions.assertThrows(
        io.cdap.cdap.etl.api.validation.ValidationException.class, () -> sink.prepareRun(driver.sinkContext()));
    assertEquals("Dataset " + id + " has no column family 'd'; it has [x].", e.getFailures().get(0).getMessage());
    assertEquals("columnFamily", e.getFailures().get(0).getCauses().get(0)
        .getAttribute(io.cdap.cdap.etl.api.validation.CauseAttributes.STAGE_CONFIG));
    assertTrue(driver.outputs().isEmpty());
    assertEquals(List.of(), MiniCluster.get().datasets().open(id).snapshots(), "nothing was begun");
  }

  @Test
  void aRunThatCannotGetTheWriterLockInTimeFailsInPrepareRunAndBeginsNothing() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("sink_lock");
    Map<String, String> props = sinkProperties(id);
    props.put("lockAcquireTimeoutSeconds", "0");
    props.put("runId", "first");
    SnapshotSink holder = new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, props));
    FakeContext first = FakeContext.builder().inputSchema(AllTypes.SCHEMA).build();
    holder.prepareRun(first.sinkContext()); // holds the writer lock until its onRunFinish

    props.put("runId", "second");
    SnapshotSink waiting = new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, props));
    FakeContext second = FakeContext.builder().inputSchema(AllTypes.SCHEMA).build();
    org.junit.jupiter.api.Assertions.assertThrows(io.snapds.dataset.lock.LockUnavailableException.class,
        () -> waiting.prepareRun(second.sinkContext()));
    assertTrue(second.outputs().isEmpty());
    assertEquals(1, MiniCluster.get().datasets().open(id).snapshots().size(), "only the holder's snapshot was begun");

    holder.onRunFinish(false, first.sinkContext());
    waiting.prepareRun(second.sinkContext()); // free now
    waiting.onRunFinish(true, second.sinkContext());
    assertEquals(Optional.of("second"), MiniCluster.get().datasets().open(id).currentSnapshot().orElseThrow().runId());
  }

  @Test
  void runsWithTheSameSourceKeyShareOneBuild() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("sink_source_key");
    Map<String, String> props = sinkProperties(id);
    props.put("sourceKey", "prices-2026-11-30");
    props.put("runId", "pipeline-a");
    Run built = runSink(props, 1L, List.of(1, 2, 3), null, true);
    SnapshotDataset dataset = MiniCluster.get().datasets().open(id);
    SnapshotInfo shared = dataset.snapshotForSource("prices-2026-11-30").orElseThrow();
    assertEquals(built.initialized(), Set.of(shared.id()));

    props.put("runId", "pipeline-b");
    Run reused = runSink(props, 2L, List.of(4, 5), null, true);
    assertEquals(Set.of(shared.id()), reused.initialized(), "the second run learns the shared snapshot");
    assertEquals(1, dataset.snapshots().size(), "nothing was built twice");
    assertEquals(inKeyOrder(List.of(1, 2, 3)), read(dataset, shared.id()));
  }

  @Test
  void theDefaultRunIdMakesARetryWithTheSameLogicalStartTimePublishNothing() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("sink_default_run");
    Map<String, String> props = sinkProperties(id);
    List<Integer> records = List.of(1, 2, 3, 4);
    runSink(props, 42_000L, records, null, true);
    SnapshotDataset dataset = MiniCluster.get().datasets().open(id);
    SnapshotInfo first = dataset.currentSnapshot().orElseThrow();
    assertEquals(Optional.of("default.daily.snapshots.42000"), first.runId());

    runSink(props, 42_000L, List.of(5, 6), null, true);
    assertEquals(1, dataset.retainedSnapshots().size());
    assertEquals(first.id(), dataset.currentSnapshot().orElseThrow().id());

    runSink(props, 43_000L, List.of(5, 6), null, true);
    assertEquals(2, dataset.retainedSnapshots().size(), "another logical start time is another run");
    assertEquals(inKeyOrder(List.of(5, 6)), read(dataset, dataset.currentSnapshot().orElseThrow().id()));
  }

  @Test
  void theSourceReadsSnapshotsBackIntoEqualRecordsOfEveryType() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("source_e2e");
    Map<String, String> props = sinkProperties(id);
    List<Integer> older = IntStream.range(0, 12).boxed().collect(Collectors.toList());
    List<Integer> newer = IntStream.range(50, 70).boxed().collect(Collectors.toList());
    props.put("runId", "older");
    runSink(props, 1L, older, null, true);
    SnapshotDataset dataset = MiniCluster.get().datasets().open(id);
    SnapshotInfo olderSnapshot = dataset.currentSnapshot().orElseThrow();
    props.put("runId", "newer");
    runSink(props, 2L, newer, null, true);

    Map<String, String> source = sourceProperties(id);
    assertEquals(Set.copyOf(expected(newer)), readWithSource(source), "the current snapshot");
    source.put("snapshotId", olderSnapshot.id().toString());
    assertEquals(Set.copyOf(expected(older)), readWithSource(source), "an older snapshot by id");
    source.remove("snapshotId");
    source.put("asOf", String.valueOf(olderSnapshot.committedAt().orElseThrow().toEpochMilli()));
    assertEquals(Set.copyOf(expected(older)), readWithSource(source), "the snapshot current at a time");
    source.remove("asOf");
    dataset.manageTags(olderSnapshot.id()).tag("audited").commit();
    source.put("tag", "audited");
    assertEquals(Set.copyOf(expected(older)), readWithSource(source), "the snapshot a tag names");
  }

  @Test
  void theSourceReadsWhatTheCoreWriterWrote() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("source_core");
    SnapshotDataset dataset = MiniCluster.get().datasets().create(id, io.snapds.dataset.DatasetProperties.defaults());
    RecordCodec codec = RecordCodec.forWriting(AllTypes.SCHEMA, "d", List.of("id"));
    List<Integer> records = IntStream.range(0, 25).boxed().collect(Collectors.toList());
    try (io.snapds.dataset.SnapshotWriter writer = dataset.newSnapshot().begin()) {
      records.forEach(i -> writer.put(codec.toRow(AllTypes.record(i))));
      writer.commit();
    }
    assertEquals(Set.copyOf(expected(records)), readWithSource(sourceProperties(id)));
  }

  @Test
  void aSourceAskingForTheCurrentSnapshotReadsTheOneCurrentWhenItsInputPins() throws Exception {
    // prepareRun and the job's split computation are apart in time: a publish with retention of
    // one in between must not make the run fail on the snapshot prepareRun saw
    DatasetId id = MiniCluster.uniqueDataset("source_current");
    SnapshotDataset dataset = MiniCluster.get().datasets().create(id, io.snapds.dataset.DatasetProperties.builder()
        .retention(io.snapds.dataset.RetentionPolicy.retainLast(1)).build());
    List<Integer> older = IntStream.range(0, 8).boxed().collect(Collectors.toList());
    List<Integer> newer = IntStream.range(30, 45).boxed().collect(Collectors.toList());
    SnapshotId first = writeWithCore(dataset, older);
    Map<String, String> properties = sourceProperties(id);
    SnapshotSource source = new SnapshotSource(PluginConfigs.create(SnapshotSourceConfig.class, properties));
    source.configurePipeline(new MockPipelineConfigurer(null));
    FakeContext driver = FakeContext.builder().stage("snapshots").build();
    source.prepareRun(driver.sourceContext());
    SnapshotId second = writeWithCore(dataset, newer);
    dataset.cleanup();
    assertEquals(SnapshotState.EXPIRED, dataset.snapshot(first).state(), "retention expired the first");

    List<StructuredRecord> emitted = PipelineJobs.runSourceJob(MiniCluster.get().configuration(), properties, driver);
    assertEquals(Set.copyOf(expected(newer)),
        emitted.stream().map(AllTypes::normalize).collect(Collectors.toSet()), "the run read the current snapshot");
    assertEquals(newer.size(), emitted.size());
    assertEquals(Optional.of(second), source.readSnapshot(), "the source reports the snapshot its input pinned");
    source.onRunFinish(true, driver.sourceContext());
  }

  private static SnapshotId writeWithCore(SnapshotDataset dataset, List<Integer> records) {
    RecordCodec codec = RecordCodec.forWriting(AllTypes.SCHEMA, "d", List.of("id"));
    try (io.snapds.dataset.SnapshotWriter writer = dataset.newSnapshot().begin()) {
      records.forEach(i -> writer.put(codec.toRow(AllTypes.record(i))));
      return writer.commit().id();
    }
  }

  private static Map<String, String> sourceProperties(DatasetId id) {
    Map<String, String> source = new HashMap<>(sinkProperties(id));
    source.remove("rowKeyFields");
    source.remove("retainLast");
    source.remove("schemaMode");
    source.put("schema", AllTypes.SCHEMA.toString());
    return source;
  }

  private static Set<Object> readWithSource(Map<String, String> properties) throws Exception {
    SnapshotSource source = new SnapshotSource(PluginConfigs.create(SnapshotSourceConfig.class, properties));
    MockPipelineConfigurer configurer = new MockPipelineConfigurer(null);
    source.configurePipeline(configurer);
    assertEquals(AllTypes.SCHEMA, configurer.getOutputSchema());
    FakeContext driver = FakeContext.builder().stage("snapshots").build();
    source.prepareRun(driver.sourceContext());
    List<StructuredRecord> emitted = PipelineJobs.runSourceJob(MiniCluster.get().configuration(), properties, driver);
    // the input pinned the snapshot it read; onRunFinish releases the pin
    SnapshotId read = source.readSnapshot().orElseThrow();
    io.snapds.dataset.lock.LockTable locks = new io.snapds.dataset.lock.LockTable(MiniCluster.get().connection(),
        DatasetId.of(properties.get("namespace"), properties.get("dataset")).lockTable(), java.time.Clock.systemUTC());
    assertEquals(1, locks.livePins(read), "the run's input pinned snapshot " + read);
    source.onRunFinish(true, driver.sourceContext());
    assertEquals(0, locks.livePins(read), "onRunFinish released the pin");
    List<Object> normalized = emitted.stream().map(AllTypes::normalize).collect(Collectors.toList());
    assertEquals(normalized.size(), Set.copyOf(normalized).size(), "no record emitted twice");
    return Set.copyOf(normalized);
  }

  // ---- datasets with a schema (#15) ----

  private static final List<Integer> GOLDEN = IntStream.range(0, GoldenRecords.records().size()).boxed()
      .collect(Collectors.toList());

  /** Runs the sink over the golden records in {@code input} (its extra string fields set to "name-id"). */
  private Run runTypedSink(Map<String, String> properties, long logicalStartTime,
      io.cdap.cdap.api.data.schema.Schema input, List<String> extras) throws Exception {
    PipelineJobs.inputSchema = input;
    PipelineJobs.records = i -> {
      Map<String, String> values = new HashMap<>();
      extras.forEach(n -> values.put(n, n + "-" + GoldenRecords.records().get(i).get("id")));
      return GoldenCdap.record(input, i, values);
    };
    try {
      return runSink(properties, logicalStartTime, GOLDEN, null, true);
    } finally {
      PipelineJobs.inputSchema = AllTypes.SCHEMA;
      PipelineJobs.records = AllTypes::record;
    }
  }

  private static Map<String, String> typedSinkProperties(DatasetId id) {
    Map<String, String> p = sinkProperties(id);
    p.remove("schemaMode"); // auto: the dataset this sink creates gets the input's schema
    p.put("rowKeyFields", "id");
    return p;
  }

  /** What the source emits for these properties, as golden values with {@code extras}, in id order. */
  private static List<Map<String, Object>> readGoldenWithSource(Map<String, String> properties, List<String> extras)
      throws Exception {
    SnapshotSource source = new SnapshotSource(PluginConfigs.create(SnapshotSourceConfig.class, properties));
    MockPipelineConfigurer configurer = new MockPipelineConfigurer(null);
    source.configurePipeline(configurer);
    FakeContext driver = FakeContext.builder().stage("snapshots").build();
    source.prepareRun(driver.sourceContext());
    List<StructuredRecord> emitted = PipelineJobs.runSourceJob(MiniCluster.get().configuration(), properties, driver);
    source.onRunFinish(true, driver.sourceContext());
    for (StructuredRecord r : emitted) {
      assertEquals(configurer.getOutputSchema(), r.getSchema(), "the deploy-time output schema is the records'");
    }
    return emitted.stream().map(r -> GoldenCdap.values(r, extras))
        .sorted(java.util.Comparator.comparing(m -> (Long) m.get("id"))).collect(Collectors.toList());
  }

  /** The snapshot's rows through the core's Java API, decoded with the schema the snapshot records. */
  private static List<Map<String, Object>> readGoldenWithJavaApi(SnapshotDataset dataset, SnapshotId snapshot) {
    Schema own = dataset.schema(snapshot).orElseThrow();
    RowCodec codec = new RowCodec(own, "d");
    List<Map<String, Object>> out = new ArrayList<>();
    try (RowScanner rows = dataset.readSnapshot(snapshot).scan(RowScan.all())) {
      rows.forEach(r -> out.add(GoldenCdap.comparable(codec.decode(r).toMap())));
    }
    return out;
  }

  @Test
  void aTypedSinkGivesTheDatasetTheInputsSchemaEvolvesItAndEveryReaderReadsEachSnapshotWithItsOwn()
      throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("typed");
    Map<String, String> sink = typedSinkProperties(id);
    sink.put("runId", "v1");
    runTypedSink(sink, 1L, GoldenCdap.SCHEMA, List.of());
    SnapshotDataset dataset = MiniCluster.get().datasets().open(id);
    SnapshotInfo v1 = dataset.currentSnapshot().orElseThrow();
    Schema schema1 = Schema.parse(GoldenRecords.schemaText());
    assertEquals(Optional.of(schema1), dataset.schema(), "the dataset got the input's schema, id first as the key");
    assertEquals(Optional.of(1), v1.schemaId());
    assertEquals(GoldenCdap.expected(Map.of()), readGoldenWithJavaApi(dataset, v1.id()), "the Java API");

    // a second run whose input adds a nullable field evolves the schema; its snapshot records v2
    sink.put("runId", "v2");
    runTypedSink(sink, 2L, GoldenCdap.schema("golden2", List.of("note")), List.of("note"));
    SnapshotInfo v2 = dataset.currentSnapshot().orElseThrow();
    assertEquals(Optional.of(2), v2.schemaId());
    assertEquals(Optional.of(schema1), dataset.schema(v1.id()), "v1 keeps its schema");
    assertEquals("1:" + schema1.fields().get(0) + ", ", dataset.schema().orElseThrow().toStringWithIds()
        .substring(0, ("1:" + schema1.fields().get(0) + ", ").length()));
    assertEquals(Optional.of(13), dataset.schema().orElseThrow().findField("note").map(f -> f.id()));
    List<Map<String, Object>> withNotes = new ArrayList<>();
    for (Map<String, Object> r : GoldenCdap.expected(Map.of())) {
      Map<String, Object> m = new java.util.LinkedHashMap<>(r);
      m.put("note", "note-" + r.get("id"));
      withNotes.add(m);
    }
    assertEquals(withNotes, readGoldenWithJavaApi(dataset, v2.id()));

    // the source, with no schema configured: the dataset's current one; each snapshot read with its own
    Map<String, String> source = sourceProperties(id);
    source.remove("schema");
    assertEquals(withNotes, readGoldenWithSource(source, List.of("note")), "the source, current snapshot (v2)");
    source.put("snapshotId", v1.id().toString());
    assertEquals(GoldenCdap.expected(java.util.Collections.singletonMap("note", null)),
        readGoldenWithSource(source, List.of("note")), "the source, v1: its values, the field added since null");

    // MapReduce's typed record, on the local job runner
    assertEquals(GoldenCdap.expected(Map.of()), readGoldenWithMapReduce(id, v1.id()), "MapReduce, v1");
    assertEquals(withNotes, readGoldenWithMapReduce(id, v2.id()), "MapReduce, v2");
  }

  private List<Map<String, Object>> readGoldenWithMapReduce(DatasetId id, SnapshotId snapshot) throws Exception {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(
        MiniCluster.get().configuration());
    conf.set("mapreduce.framework.name", "local");
    conf.set(io.snapds.dataset.tx.JobDatasets.TX_CLIENT_FACTORY,
        io.snapds.dataset.testing.MiniClusterTxClientFactory.class.getName());
    org.apache.hadoop.mapreduce.Job job = org.apache.hadoop.mapreduce.Job.getInstance(conf, "typed-read");
    SnapshotRecordInputFormat.setInput(job, id, io.snapds.dataset.read.SnapshotSelector.snapshot(snapshot));
    job.setMapperClass(TypedRecordMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(org.apache.hadoop.mapreduce.lib.output.NullOutputFormat.class);
    TypedRecordMapper.SEEN.clear();
    try {
      assertTrue(job.waitForCompletion(false), "the typed-record job failed");
    } finally {
      SnapshotRecordInputFormat.releasePin(job);
    }
    return TypedRecordMapper.SEEN.stream().sorted(java.util.Comparator.comparing(m -> (Long) m.get("id")))
        .collect(Collectors.toList());
  }

  /** Collects each row's typed values. */
  public static final class TypedRecordMapper extends org.apache.hadoop.mapreduce.Mapper<
      org.apache.hadoop.hbase.io.ImmutableBytesWritable, SnapshotRecordWritable, Object, Object> {
    static final List<Map<String, Object>> SEEN = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    protected void map(org.apache.hadoop.hbase.io.ImmutableBytesWritable key, SnapshotRecordWritable value,
        Context context) {
      SEEN.add(GoldenCdap.comparable(value.record().toMap()));
    }
  }

  @Test
  void anInputOrOutputSchemaThatDoesNotFitTheDatasetIsRefusedNamingTheFieldAndNothingIsPublished()
      throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("typed_bad");
    SnapshotDataset dataset = MiniCluster.get().datasets().create(id, io.snapds.dataset.DatasetProperties.defaults());
    Schema schema = Schema.parse("id long key, amount decimal(18,4)");
    dataset.setSchema(schema);
    io.cdap.cdap.api.data.schema.Schema input = io.cdap.cdap.api.data.schema.Schema.recordOf("bad",
        io.cdap.cdap.api.data.schema.Schema.Field.of("id", io.cdap.cdap.api.data.schema.Schema.of(
            io.cdap.cdap.api.data.schema.Schema.Type.LONG)),
        io.cdap.cdap.api.data.schema.Schema.Field.of("amount", io.cdap.cdap.api.data.schema.Schema.of(
            io.cdap.cdap.api.data.schema.Schema.Type.STRING)));
    Map<String, String> properties = typedSinkProperties(id);
    properties.remove("rowKeyFields"); // the dataset's key

    // deploy: the dataset is reachable, so the input is checked against its schema
    SnapshotSink sink = new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, properties));
    io.cdap.cdap.etl.api.validation.ValidationException atDeploy = org.junit.jupiter.api.Assertions.assertThrows(
        io.cdap.cdap.etl.api.validation.ValidationException.class,
        () -> sink.configurePipeline(new MockPipelineConfigurer(input)));
    assertEquals(List.of("Input schema does not fit the dataset: input field 'amount' is string, but the "
        + "dataset's field 'amount' is decimal(18,4)."), messages(atDeploy));
    assertEquals("amount", atDeploy.getFailures().get(0).getCauses().get(0).getAttribute(
        io.cdap.cdap.etl.api.validation.CauseAttributes.INPUT_SCHEMA_FIELD));

    // prepareRun (a dataset not reachable at deploy, or changed since): the same, nothing begun
    FakeContext driver = FakeContext.builder().stage("snapshots").pipeline("daily").inputSchema(input).build();
    io.cdap.cdap.etl.api.validation.ValidationException atRun = org.junit.jupiter.api.Assertions.assertThrows(
        io.cdap.cdap.etl.api.validation.ValidationException.class, () -> sink.prepareRun(driver.sinkContext()));
    assertEquals(messages(atDeploy), messages(atRun));
    assertEquals(List.of(), dataset.snapshots(), "no snapshot begun");
    assertEquals(Optional.of(schema), dataset.schema(), "the schema unchanged");

    // the source: an output field the dataset has no column for
    Map<String, String> source = sourceProperties(id);
    source.put("schema", io.cdap.cdap.api.data.schema.Schema.recordOf("out",
        io.cdap.cdap.api.data.schema.Schema.Field.of("id", io.cdap.cdap.api.data.schema.Schema.of(
            io.cdap.cdap.api.data.schema.Schema.Type.LONG)),
        io.cdap.cdap.api.data.schema.Schema.Field.of("colour", io.cdap.cdap.api.data.schema.Schema.nullableOf(
            io.cdap.cdap.api.data.schema.Schema.of(io.cdap.cdap.api.data.schema.Schema.Type.STRING)))).toString());
    SnapshotSource reader = new SnapshotSource(PluginConfigs.create(SnapshotSourceConfig.class, source));
    io.cdap.cdap.etl.api.validation.ValidationException unknown = org.junit.jupiter.api.Assertions.assertThrows(
        io.cdap.cdap.etl.api.validation.ValidationException.class,
        () -> reader.configurePipeline(new MockPipelineConfigurer(null)));
    assertEquals(List.of("Output schema does not fit the dataset: unknown column 'colour': the dataset's schema has "
        + "no such field (it has [id, amount])."), messages(unknown));
  }

  private static List<String> messages(io.cdap.cdap.etl.api.validation.ValidationException e) {
    return e.getFailures().stream().map(f -> f.getMessage()).collect(Collectors.toList());
  }
}
