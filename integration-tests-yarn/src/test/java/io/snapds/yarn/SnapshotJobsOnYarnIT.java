package io.snapds.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.NewSnapshot;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.mapreduce.SnapshotMapReduceUtil;
import io.snapds.dataset.mapreduce.SnapshotOutputFormat;
import io.snapds.dataset.mapreduce.SnapshotRecordInputFormat;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.testing.GoldenRecords;
import io.snapds.dataset.testing.MiniCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import io.snapds.events.example.DerivedSnapshotJob;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.util.MRApps;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.Test;

/**
 * MapReduce jobs as users write them ({@link SnapshotMapReduceUtil}, {@code addDependencyJars}),
 * run on YARN: the application master and every task in a JVM of its own, whose classpath is a
 * Hadoop node's plus what the job ships, and which reach HBase and Tephra's transaction service
 * only through the job configuration ({@link YarnTestBed}). Each test checks what a reader gets
 * through the Java API in the test JVM, the snapshot ids and the stored rows.
 */
class SnapshotJobsOnYarnIT {
  private final YarnTestBed bed = YarnTestBed.get();

  // ---- a. reading a pinned snapshot while another writer publishes and cleanup runs ----

  @Test
  void aJobReadsItsPinnedSnapshotOneTaskPerRegionWhileOthersPublishAndCleanupRuns() throws Exception {
    SnapshotDataset a = create("pinned");
    SnapshotInfo s1 = publishAcrossRegions(a, "one", 90, "k030", "k060");
    List<SnapshotRow> expected = rows(a, s1.id());
    Path latch = bed.newDirectory("pinned");

    Job job = bed.newJob("pinned read on YARN");
    SnapshotMapReduceUtil.initSnapshotMapperJob(a.id(), SnapshotSelector.current(), TaskSide.CountingMapper.class,
        null, null, job, true);
    job.getConfiguration().set(TaskSide.LATCH_DIR, latch.toString());
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setNumReduceTasks(0);
    job.setSpeculativeExecution(false); // so that the tasks launched are the splits
    CompletableFuture<Boolean> run = runAsync(job);

    // the first task holds at its first row while the dataset moves on under the job
    awaitStarted(latch, run);
    publish(a, "two", 10);
    publish(a, "three", 10);
    a.expireSnapshots().expire(s1.id()).commit();
    CleanupResult during = a.cleanup();
    TaskSide.writeFile(bed.fileSystem(), new Path(latch, "go"), "");

    assertTrue(run.get(5, TimeUnit.MINUTES), "the job failed");
    assertTrue(during.deferred().contains(s1.id()), "the job's pin must keep s1's rows: " + during);
    Counters counters = job.getCounters();
    assertEquals(3, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(), "one map task per region");
    assertEquals(Map.of("k000", 30L, "k030", 30L, "k060", 30L), byName(counters.getGroup(TaskSide.ROWS_BY_FIRST_KEY)),
        "each task read its region's rows of s1");
    assertEquals(expected.size(), counters.findCounter(TaskSide.TOTALS, "rows").getValue());
    assertEquals(expected.stream().mapToLong(TaskSide::rowHash).sum(),
        counters.findCounter(TaskSide.TOTALS, "hash").getValue(), "the rows the tasks read are s1's");

    // runJob released the pin: the next cleanup deletes s1's rows
    CleanupResult after = a.cleanup();
    assertTrue(after.cleaned().contains(s1.id()), after.toString());
    assertEquals(0, rawRows(a, s1.keys()));
  }

  // ---- b. writing: an attempt killed mid-write and re-run, speculative execution on ----

  @Test
  void aCopyWithAnAttemptKilledMidWriteAndSpeculationOnPublishesOnceWhatAReaderGets() throws Exception {
    SnapshotDataset src = create("copySrc");
    SnapshotInfo input = publishAcrossRegions(src, "in", 300, "k100", "k200");
    SnapshotDataset out = create("copyOut");
    SnapshotInfo before = publish(out, "old", 5);
    Path latch = bed.newDirectory("halting");

    Job job = bed.newJob("copy on YARN with a halted attempt");
    SnapshotMapReduceUtil.initSnapshotMapperJob(src.id(), SnapshotSelector.current(),
        TaskSide.HaltingCopyMapper.class, ImmutableBytesWritable.class, SnapshotRowWritable.class, job, false);
    SnapshotMapReduceUtil.initSnapshotReducerJob(out.id(), "yarn-copy-1", null, job, true);
    job.setNumReduceTasks(0);
    job.getConfiguration().set(TaskSide.LATCH_DIR, latch.toString());
    SnapshotOutputFormat.setWriteBufferBytes(job, 1024); // rows reach HBase before the halt
    job.setSpeculativeExecution(true); // setOutput turned it off; a user may turn it back on
    assertTrue(SnapshotMapReduceUtil.runJob(job, false), "the job failed");

    SnapshotId written = SnapshotOutputFormat.outputSnapshot(job.getConfiguration()).orElseThrow();
    long haltedWith = Long.parseLong(read(new Path(latch, "halted")));
    assertTrue(haltedWith > 0, "the halted attempt had rows in HBase");
    assertTrue(job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue() >= 1,
        "the halted attempt counts as failed");
    assertEquals(List.of(before.id(), written), committed(out), "published once");
    SnapshotInfo published = out.currentSnapshot().orElseThrow();
    assertEquals(written, published.id());
    List<SnapshotRow> got = rows(out, written);
    assertEquals(rows(src, input.id()), got, "the copy is the input, row for row");
    assertEquals(got.size(), published.rowCount(), "the published count is what a reader gets");
    assertEquals(input.rowCount(), published.rowCount());
    assertEquals(input.byteCount(), published.byteCount());
    assertEquals(job.getJobID().toString(), published.summary().get("mapreduce.job.id"));
    assertTrue(out.lockStatus(NewSnapshot.WRITER_LOCK).lease().isEmpty(), "the writer lock was released");

    // the same run id again: begins nothing, publishes nothing
    Job again = bed.newJob("copy on YARN, again");
    SnapshotMapReduceUtil.initSnapshotCopyJob(src.id(), SnapshotSelector.current(), out.id(), "yarn-copy-1", again, true);
    assertTrue(SnapshotMapReduceUtil.runJob(again, false));
    assertEquals(List.of(before.id(), written), committed(out));
    assertEquals(2, out.snapshots().size(), "the re-run began no snapshot");
  }

  // ---- b. writing: the application master dies once, in its commit ----

  /**
   * The first application master dies (its JVM killed with SIGKILL, as a crash or a lost node ends
   * it) after two of the three map tasks have finished, with the job's commit begun as far as
   * Hadoop's records go; YARN starts a second one ({@code mapreduce.am.max-attempts} 2), which
   * runs the job again and publishes.
   *
   * <p>Hadoop's application master writes {@code COMMIT_STARTED} in the job's staging directory
   * before it calls {@code commitJob} (and {@code COMMIT_SUCCESS} or {@code COMMIT_FAIL} after),
   * and a second application master that finds only {@code COMMIT_STARTED} runs the job again
   * only if the committer says its commit is repeatable; otherwise it ends the job at start
   * ("Was asked to shut down."). A commit takes a scan of the snapshot's keys (seconds per
   * million rows), so this is where a crash often finds it. The test writes that record itself
   * just before the kill, since no moment inside a commit can be waited for from here; without
   * it the second application master takes the same path after its first step (it deletes
   * {@code COMMIT_STARTED} and starts over).
   */
  @Test
  void aCopyWhoseApplicationMasterDiesOnceInItsCommitPublishesOnceWhatAReaderGets() throws Exception {
    SnapshotDataset src = create("amSrc");
    SnapshotInfo input = publishAcrossRegions(src, "in", 60, "k020", "k040");
    SnapshotDataset out = create("amOut");
    SnapshotInfo before = publish(out, "old", 5);
    Path latch = bed.newDirectory("am-killed");

    Job job = bed.newJob("copy on YARN whose application master dies once");
    SnapshotMapReduceUtil.initSnapshotMapperJob(src.id(), SnapshotSelector.current(),
        TaskSide.HoldingCopyMapper.class, ImmutableBytesWritable.class, SnapshotRowWritable.class, job, false);
    SnapshotMapReduceUtil.initSnapshotReducerJob(out.id(), "yarn-am-1", null, job, true);
    job.setNumReduceTasks(0);
    job.getConfiguration().set(TaskSide.LATCH_DIR, latch.toString());
    job.getConfiguration().set(TaskSide.HOLD_KEY, "k040");
    job.getConfiguration().setInt(MRJobConfig.MR_AM_MAX_ATTEMPTS, 2);
    SnapshotOutputFormat.setWriteBufferBytes(job, 1024);
    CompletableFuture<Boolean> run = runAsync(job);

    // two tasks have finished (as the application master knows it) and the third holds
    awaitStarted(latch, "held-", run);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (succeededMaps(job) < 2) {
      assertFalse(run.isDone(), "the job ended before two tasks finished");
      assertTrue(System.nanoTime() < deadline, "two tasks did not finish within 3 minutes");
      Thread.sleep(100);
    }
    SnapshotId written = SnapshotOutputFormat.outputSnapshot(job.getConfiguration()).orElseThrow();
    assertTrue(rawRows(out, out.keys(written)) > 0, "the finished tasks' rows are in HBase");
    JobId jobId = TypeConverter.toYarn(job.getJobID());
    Path commitStarted = MRApps.getStartJobCommitFile(job.getConfiguration(),
        UserGroupInformation.getCurrentUser().getShortUserName(), jobId);
    TaskSide.writeFile(commitStarted.getFileSystem(job.getConfiguration()), commitStarted, "");
    ApplicationId app = jobId.getAppId();
    bed.killApplicationMaster(app);
    TaskSide.writeFile(bed.fileSystem(), new Path(latch, "go"), "");

    assertTrue(run.get(5, TimeUnit.MINUTES), "the job failed");
    assertEquals(2, bed.attempts(app).size(), "a second application master ran the job");
    assertEquals(List.of(before.id(), written), committed(out), "published once");
    SnapshotInfo published = out.currentSnapshot().orElseThrow();
    assertEquals(written, published.id());
    List<SnapshotRow> got = rows(out, written);
    assertEquals(rows(src, input.id()), got, "the copy is the input, row for row");
    assertEquals(got.size(), published.rowCount(), "the published count is what a reader gets");
    assertEquals(got.stream().mapToLong(SnapshotJobsOnYarnIT::bytes).sum(), published.byteCount(),
        "the published byte count is what a reader gets");
    assertEquals(input.byteCount(), published.byteCount());
    assertEquals(job.getJobID().toString(), published.summary().get("mapreduce.job.id"));
    assertEquals(2, out.snapshots().size(), "nothing else was begun");
    assertTrue(out.lockStatus(NewSnapshot.WRITER_LOCK).lease().isEmpty(), "the writer lock was released");
  }

  // ---- c. a job that fails ----

  @Test
  void aFailedJobPublishesNothingItsSnapshotIsAbortedAndCleanupRemovesItsRows() throws Exception {
    SnapshotDataset src = create("failSrc");
    publish(src, "in", 80);
    SnapshotDataset out = create("failOut");
    SnapshotInfo before = publish(out, "old", 5);
    List<SnapshotRow> beforeRows = rows(out, before.id());
    Path latch = bed.newDirectory("failing");

    Job job = bed.newJob("failing copy on YARN");
    SnapshotMapReduceUtil.initSnapshotMapperJob(src.id(), SnapshotSelector.current(),
        TaskSide.FailingCopyMapper.class, ImmutableBytesWritable.class, SnapshotRowWritable.class, job, false);
    SnapshotMapReduceUtil.initSnapshotReducerJob(out.id(), null, null, job, true);
    job.setNumReduceTasks(0);
    job.getConfiguration().set(TaskSide.LATCH_DIR, latch.toString());
    SnapshotOutputFormat.setWriteBufferBytes(job, 1024);
    assertFalse(SnapshotMapReduceUtil.runJob(job, false), "the job must fail");

    SnapshotId failed = SnapshotOutputFormat.handle(job.getConfiguration()).orElseThrow().snapshotId();
    List<FileStatus> attempts = files(latch, "failed-");
    assertEquals(2, attempts.size(), "both attempts of the task ran and failed");
    for (FileStatus attempt : attempts) {
      assertTrue(Long.parseLong(read(attempt.getPath())) > 0, "the attempt had rows in HBase: " + attempt.getPath());
    }
    assertEquals(List.of(before.id()), committed(out), "nothing published");
    assertEquals(before.id(), out.currentSnapshot().orElseThrow().id());
    assertEquals(beforeRows, rows(out, before.id()));
    assertEquals(SnapshotState.ABORTED, out.snapshot(failed).state());
    assertThrows(SnapshotNotAvailableException.class, () -> out.readSnapshot(failed));
    SnapshotKeys keys = out.keys(failed);
    assertTrue(rawRows(out, keys) > 0, "the aborted snapshot's rows wait for cleanup");
    assertTrue(out.cleanup().cleaned().contains(failed), "cleanup deletes them without waiting for readers");
    assertEquals(0, rawRows(out, keys), "no row is left under the aborted snapshot's prefix");
    assertTrue(out.lockStatus(NewSnapshot.WRITER_LOCK).lease().isEmpty(), "the writer lock was released");
  }

  // ---- d. typed records ----

  @Test
  void typedRecordsReadOnYarnAreTheRecordsTheJavaApiReads() throws Exception {
    SnapshotDataset ds = create("typed");
    Schema schema = Schema.parse(GoldenRecords.schemaText());
    ds.setSchema(schema);
    RowCodec codec = new RowCodec(schema, "d");
    SnapshotInfo written;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      GoldenRecords.records().forEach(r -> w.put(codec.encode(r)));
      written = w.commit();
    }
    Map<String, String> expected = new TreeMap<>();
    for (SnapshotRow row : rows(ds, written.id())) {
      SchemaRecord record = codec.decode(row);
      expected.put(Bytes.toStringBinary(row.key()),
          TaskSide.recordText(new TreeMap<>(record.toMap())) + " " + schema.toStringWithIds());
    }
    assertEquals(GoldenRecords.records().size(), expected.size());

    Path output = new Path(bed.newDirectory("typed"), "out");
    Job job = bed.newJob("typed records on YARN");
    SnapshotRecordInputFormat.setInput(job, ds.id(), SnapshotSelector.snapshot(written.id()));
    job.setMapperClass(TaskSide.TypedRecordMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    job.setNumReduceTasks(0);
    SnapshotMapReduceUtil.addDependencyJars(job);
    assertTrue(SnapshotMapReduceUtil.runJob(job, false), "the job failed");

    Map<String, String> got = new TreeMap<>();
    for (FileStatus part : files(output, "part-")) {
      for (String line : read(part.getPath()).split("\n")) {
        if (!line.isEmpty()) {
          String[] kv = line.split("\t", 2);
          assertEquals(null, got.put(kv[0], kv[1]), "a row read twice: " + kv[0]);
        }
      }
    }
    assertEquals(expected, got);
  }

  // ---- d. the events module's example job, as a consumer runs it ----

  /**
   * {@link DerivedSnapshotJob} handles a PUBLISHED event by running a copy job of exactly that
   * snapshot: on YARN the job's tasks must receive the project's jars, and the event handled again
   * publishes nothing.
   */
  @Test
  void theEventsExampleJobDerivesTheEventsSnapshotOnYarnOnce() throws Exception {
    SnapshotDataset src = create("derivedSrc");
    SnapshotInfo input = publishAcrossRegions(src, "in", 120, "k060");
    SnapshotDataset derived = create("derivedOut");
    DatasetEvent published = src.events(0, 100).stream()
        .filter(e -> e.type() == DatasetEvent.Type.PUBLISHED && e.snapshotId().equals(input.id()))
        .findFirst().orElseThrow();
    publish(src, "newer", 30); // published meanwhile: the job must copy the event's snapshot, not current

    Configuration conf = bed.newJob("derive on YARN").getConfiguration();
    DerivedSnapshotJob handler = new DerivedSnapshotJob(conf, bed.datasets(), src.id(), derived.id());
    handler.handle(published);

    SnapshotInfo made = derived.currentSnapshot().orElseThrow();
    assertEquals(Optional.of(DerivedSnapshotJob.runId(input.id())), made.runId());
    assertEquals(rows(src, input.id()), rows(derived, made.id()), "the derived snapshot is the event's, row for row");
    assertEquals(input.rowCount(), made.rowCount());

    handler.handle(published); // a redelivery: the run id was published, nothing more is
    assertEquals(List.of(made.id()), committed(derived));
    assertEquals(1, derived.snapshots().size(), "the second handling began no snapshot");
  }

  // ---- helpers ----

  private SnapshotDataset create(String prefix) {
    return bed.datasets().create(MiniCluster.uniqueDataset(prefix),
        DatasetProperties.builder().families("d", "e").build());
  }

  /** Rows k000.. with a d:v cell each and an e:n cell on every third. */
  private static SnapshotInfo publish(SnapshotDataset ds, String tag, int rows) {
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      write(w, tag, rows);
      return w.commit();
    }
  }

  private static void write(SnapshotWriter w, String tag, int rows) {
    for (int i = 0; i < rows; i++) {
      byte[] key = Bytes.toBytes(String.format("k%03d", i));
      w.put(key, "d", "v", Bytes.toBytes(tag + i));
      if (i % 3 == 0) {
        w.put(key, "e", "n", Bytes.toBytes(i));
      }
    }
  }

  /** Publishes like {@link #publish}, after splitting the new snapshot's (empty) range at the given user keys. */
  private SnapshotInfo publishAcrossRegions(SnapshotDataset ds, String tag, int rows, String... splitKeys)
      throws Exception {
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (String k : splitKeys) {
        splitAt(ds.id().dataTable(), w.snapshotKeys().rowKey(Bytes.toBytes(k)));
      }
      write(w, tag, rows);
      return w.commit();
    }
  }

  private void splitAt(TableName table, byte[] point) throws Exception {
    bed.hbase().splitAt(table, point);
  }


  /** The ids of the dataset's committed snapshots, oldest first. */
  private static List<SnapshotId> committed(SnapshotDataset ds) {
    return ds.snapshots().stream().filter(i -> i.state() == SnapshotState.COMMITTED).map(SnapshotInfo::id)
        .sorted().toList();
  }

  private static List<SnapshotRow> rows(SnapshotDataset ds, SnapshotId id) {
    List<SnapshotRow> out = new ArrayList<>();
    try (RowScanner rows = ds.readSnapshot(id).scan(RowScan.all())) {
      rows.forEach(out::add);
    }
    return out;
  }

  /** A row's bytes as the published byte count counts them: its key once, the qualifier and value of each cell. */
  private static long bytes(SnapshotRow row) {
    long n = row.key().length;
    for (Map<byte[], byte[]> family : row.families().values()) {
      for (Map.Entry<byte[], byte[]> cell : family.entrySet()) {
        n += cell.getKey().length + cell.getValue().length;
      }
    }
    return n;
  }

  /** The map tasks the job's (current) application master reports finished. */
  private static long succeededMaps(Job job) throws IOException, InterruptedException {
    return Arrays.stream(job.getTaskCompletionEvents(0, 100))
        .filter(e -> e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED).count();
  }

  private long rawRows(SnapshotDataset ds, SnapshotKeys keys) throws IOException {
    return bed.hbase().rawRows(ds.id(), keys); // TaskSide's copy is for the task JVMs, which lack the test jar
  }

  private static Map<String, Long> byName(CounterGroup group) {
    Map<String, Long> out = new TreeMap<>();
    for (Counter c : group) {
      out.put(c.getName(), c.getValue());
    }
    return out;
  }

  private String read(Path file) throws IOException {
    FileSystem fs = bed.fileSystem();
    StringBuilder text = new StringBuilder();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        text.append(line).append('\n');
      }
    }
    return text.toString().strip();
  }

  /** The files in {@code dir} whose names start with {@code prefix}. */
  private List<FileStatus> files(Path dir, String prefix) throws IOException {
    List<FileStatus> out = new ArrayList<>();
    for (FileStatus f : bed.fileSystem().listStatus(dir)) {
      if (f.getPath().getName().startsWith(prefix)) {
        out.add(f);
      }
    }
    return out;
  }

  private static CompletableFuture<Boolean> runAsync(Job job) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return SnapshotMapReduceUtil.runJob(job, false);
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
  }

  /** Waits until a task of the job says it started (a file in the latch directory), or the job ended. */
  private void awaitStarted(Path latch, CompletableFuture<Boolean> run) throws Exception {
    awaitStarted(latch, "started-", run);
  }

  private void awaitStarted(Path latch, String prefix, CompletableFuture<Boolean> run) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (files(latch, prefix).isEmpty()) {
      if (run.isDone()) {
        throw new AssertionError("the job ended before a task started: succeeded=" + run.get());
      }
      assertTrue(System.nanoTime() < deadline, "no task started within 3 minutes");
      Thread.sleep(100);
    }
  }
}
