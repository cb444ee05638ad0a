package io.snapds.it.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.NewSnapshot;
import io.snapds.dataset.Reconciler;
import io.snapds.dataset.Reconciler.ReconcileResult;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.mapreduce.SnapshotInputFormat;
import io.snapds.dataset.mapreduce.SnapshotInputFormatImpl;
import io.snapds.dataset.mapreduce.SnapshotMapReduceUtil;
import io.snapds.dataset.mapreduce.SnapshotOutputFormat;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.mapreduce.SnapshotSplit;
import io.snapds.dataset.mapreduce.SnapshotRecordInputFormat;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.schema.Type;
import io.snapds.dataset.testing.GoldenRecords;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MapReduce jobs over snapshot datasets on the local job runner and the shared mini cluster:
 * copying, pinning under concurrent publish/expire/cleanup, failure, run-id re-runs, split
 * computation over several regions, and configuration errors at submission.
 */
@ExtendWith(MiniClusterExtension.class)
class SnapshotMapReduceIT {
  private final MiniCluster cluster = MiniCluster.get();

  // ---- copy ----

  @Test
  void copyJobCopiesSnapshotOfOneDatasetIntoNewSnapshotOfAnother() throws Exception {
    SnapshotDataset a = create("copyA");
    SnapshotDataset b = create("copyB");
    SnapshotInfo s = publish(a, "s", 120);
    publish(a, "newer", 30); // S is not current any more: it is read by id

    Job job = newJob("copy");
    SnapshotMapReduceUtil.initSnapshotCopyJob(a.id(), SnapshotSelector.snapshot(s.id()), b.id(), null, job, false);
    assertTrue(SnapshotMapReduceUtil.runJob(job, false));

    SnapshotInfo copy = b.currentSnapshot().orElseThrow();
    assertEquals(rows(a.readSnapshot(s.id())), rows(b.readCurrent()));
    assertEquals(120, copy.rowCount());
    assertEquals(s.byteCount(), copy.byteCount());
    assertEquals(job.getJobID().toString(), copy.summary().get("mapreduce.job.id"));
    assertEquals(Optional.of(s.id()), SnapshotInputFormatImpl.pinnedSnapshot(job.getConfiguration()));
    assertFalse(SnapshotInputFormat.releasePin(job), "runJob released the reader pin already");
    assertTrue(b.lockStatus(NewSnapshot.WRITER_LOCK).lease().isEmpty(), "the writer lock was released");
  }

  // ---- pinning ----

  @Test
  void jobReadsItsPinnedSnapshotWhileOthersArePublishedExpiredAndCleanedUp() throws Exception {
    SnapshotDataset a = create("pin");
    // two regions, so two map tasks: the local runner runs them one after the other, and the
    // second opens its scanner after the cleanup below (an open region scanner keeps seeing the
    // rows it started with, whatever is deleted later)
    SnapshotInfo s1 = publishAcrossRegions(a, "one", 60, "k030");
    List<SnapshotRow> expected = rows(a.readSnapshot(s1.id()));

    // output collected in memory: a snapshot output would hold a building transaction open,
    // which alone would keep cleanup from deleting s1, and then the pin would prove nothing
    Job job = newJob("pinned");
    SnapshotMapReduceUtil.initSnapshotMapperJob(a.id(), SnapshotSelector.current(), PausingMapper.class,
        null, null, job, false);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setNumReduceTasks(0);
    PausingMapper.reset();
    CompletableFuture<Boolean> run = Jobs.runAsync(job);

    assertTrue(PausingMapper.firstRow.await(2, TimeUnit.MINUTES), "the mapper never got a row");
    publish(a, "two", 10);
    publish(a, "three", 10);
    a.expireSnapshots().expire(s1.id()).commit();
    CleanupResult during = a.cleanup();
    PausingMapper.proceed.countDown();

    assertTrue(run.get(3, TimeUnit.MINUTES), "job failed");
    assertEquals(expected, new ArrayList<>(PausingMapper.seen));
    assertTrue(during.deferred().contains(s1.id()), "the pin must keep s1's rows: " + during);
    // runJob released the pin: nothing protects s1 now, and the next cleanup removes its rows
    CleanupResult after = a.cleanup();
    assertTrue(after.cleaned().contains(s1.id()), after.toString());
    assertEquals(0, cluster.rawRows(a.id(), s1.id()));
  }

  /** Records every row with the key the framework handed over; waits after the first. */
  public static final class PausingMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, Object, Object> {
    static final Queue<SnapshotRow> seen = new ConcurrentLinkedQueue<>();
    static volatile CountDownLatch firstRow;
    static volatile CountDownLatch proceed;

    static void reset() {
      seen.clear();
      firstRow = new CountDownLatch(1);
      proceed = new CountDownLatch(1);
    }

    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRowWritable value, Context context)
        throws InterruptedException {
      seen.add(new SnapshotRow(key.copyBytes(), value.get().families()));
      if (firstRow.getCount() > 0) {
        firstRow.countDown();
        if (!proceed.await(2, TimeUnit.MINUTES)) {
          throw new IllegalStateException("the test never let the mapper go on");
        }
      }
    }
  }

  // ---- typed records (#15) ----

  @Test
  void typedRecordsReadEachSnapshotWithTheSchemaItWasWrittenWith() throws Exception {
    SnapshotDataset ds = create("typed");
    Schema v1 = Schema.parse(GoldenRecords.schemaText());
    ds.setSchema(v1);
    RowCodec v1Rows = new RowCodec(v1, "d");
    SnapshotInfo first;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      GoldenRecords.records().forEach(r -> w.put(v1Rows.encode(r)));
      first = w.commit();
    }
    ds.updateSchema(u -> u.addField("note", Type.STRING).renameField("s", "text"));
    Schema v2 = ds.schema().orElseThrow();
    RowCodec v2Rows = new RowCodec(v2, "d");
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(v2Rows.encode(Map.of("id", 7L, "text", "seven", "note", "added in v2")));
      w.commit();
    }

    List<Map<String, Object>> older = readTyped(ds, SnapshotSelector.snapshot(first.id()));
    assertEquals(GoldenRecords.records().size(), older.size());
    for (int i = 0; i < older.size(); i++) {
      Map<String, Object> expected = new LinkedHashMap<>(GoldenRecords.records().get(i));
      expected.put("$schema", v1.toStringWithIds());
      assertEquals(comparable(expected), comparable(older.get(i)), "row " + i + " of v1, read with v1's schema");
    }
    List<Map<String, Object>> current = readTyped(ds, SnapshotSelector.current());
    assertEquals(1, current.size());
    assertEquals(v2.toStringWithIds(), current.get(0).get("$schema"), "v2's row is read with v2's schema");
    assertEquals("seven", current.get(0).get("text"));
    assertEquals("added in v2", current.get(0).get("note"));
  }

  /** Every row of the snapshot through a typed-record job: its values by name, and its schema as "$schema". */
  private List<Map<String, Object>> readTyped(SnapshotDataset ds, SnapshotSelector selector) throws Exception {
    Job job = newJob("typed");
    SnapshotRecordInputFormat.setInput(job, ds.id(), selector);
    job.setMapperClass(TypedMapper.class);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setNumReduceTasks(0);
    TypedMapper.seen.clear();
    try {
      assertTrue(job.waitForCompletion(false), "job failed");
    } finally {
      SnapshotRecordInputFormat.releasePin(job);
    }
    return new ArrayList<>(TypedMapper.seen);
  }

  /** Byte arrays as lists, so that maps of values compare by content. */
  private static Map<String, Object> comparable(Map<String, Object> values) {
    Map<String, Object> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k, v instanceof byte[] b ? Bytes.toStringBinary(b) : v));
    return out;
  }

  /** Records each row's typed values, checking the raw row and one typed getter beside them. */
  public static final class TypedMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRecordWritable, Object, Object> {
    static final Queue<Map<String, Object>> seen = new ConcurrentLinkedQueue<>();

    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRecordWritable value, Context context) {
      SchemaRecord record = value.record();
      if (!Bytes.equals(key.copyBytes(), value.row().key())) {
        throw new IllegalStateException("the raw row's key differs from the map key");
      }
      if (!java.util.Objects.equals(record.get("id"), record.getLong("id"))) {
        throw new IllegalStateException("typed getter differs from get");
      }
      Map<String, Object> out = new LinkedHashMap<>(record.toMap());
      out.put("$schema", value.schema().orElseThrow().toStringWithIds());
      seen.add(out);
    }
  }

  // ---- failure ----

  @Test
  void failedJobLeavesCurrentSnapshotAndDeletesItsRows() throws Exception {
    SnapshotDataset a = create("failA");
    SnapshotDataset b = create("failB");
    publish(a, "src", 80);
    SnapshotInfo before = publish(b, "old", 5);
    List<SnapshotRow> beforeRows = rows(b.readCurrent());

    Job job = newJob("failing");
    SnapshotMapReduceUtil.initSnapshotMapperJob(a.id(), SnapshotSelector.current(), FailingMapper.class,
        ImmutableBytesWritable.class, SnapshotRowWritable.class, job, false);
    SnapshotMapReduceUtil.initSnapshotReducerJob(b.id(), null, null, job, false);
    SnapshotOutputFormat.setWriteBufferBytes(job, 1024); // rows reach HBase before the failure
    job.setNumReduceTasks(0);
    FailingMapper.rowsInHBase.set(-1);
    assertFalse(SnapshotMapReduceUtil.runJob(job, false));

    SnapshotId failed = SnapshotOutputFormat.handle(job.getConfiguration()).orElseThrow().snapshotId();
    assertTrue(FailingMapper.rowsInHBase.get() > 0, "the failed attempt had written rows: " + FailingMapper.rowsInHBase);
    assertEquals(before.id(), b.currentSnapshot().orElseThrow().id());
    assertEquals(beforeRows, rows(b.readCurrent()));
    assertEquals(SnapshotState.ABORTED, b.snapshot(failed).state());
    assertThrows(SnapshotNotAvailableException.class, () -> b.readSnapshot(failed));
    assertTrue(cluster.rawRows(b.id(), failed) > 0, "abortJob leaves the aborted snapshot's rows to cleanup");
    assertTrue(b.cleanup().cleaned().contains(failed), "cleanup deletes them without waiting for readers");
    assertEquals(0, cluster.rawRows(b.id(), failed), "the aborted snapshot's rows are deleted");
    assertTrue(b.lockStatus(NewSnapshot.WRITER_LOCK).lease().isEmpty(), "the writer lock was released");
  }

  /** Copies rows, and fails after 40, once it has seen its rows land in HBase. */
  public static final class FailingMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, ImmutableBytesWritable, SnapshotRowWritable> {
    static final AtomicLong rowsInHBase = new AtomicLong();
    private int rows;

    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRowWritable value, Context context)
        throws IOException, InterruptedException {
      context.write(key, value);
      if (++rows == 40) {
        Configuration conf = context.getConfiguration();
        SnapshotId building = SnapshotOutputFormat.handle(conf).orElseThrow().snapshotId();
        rowsInHBase.set(MiniCluster.get().rawRows(SnapshotOutputFormat.dataset(conf), building));
        throw new IOException("this mapper fails on purpose after 40 rows");
      }
    }
  }

  // ---- staging: write, audit, publish (issue 39) ----

  /**
   * A job set to stage leaves the current snapshot as it was: its snapshot is STAGED, holds
   * exactly the job's rows, and is read by id, by the Java API and by another MapReduce job. A
   * re-run of the run id stages nothing new; publishing makes it current.
   */
  @Test
  void aStagingJobLeavesCurrentAloneAndItsSnapshotIsReadByIdUntilPublished() throws Exception {
    SnapshotDataset a = create("stageA");
    SnapshotDataset b = create("stageB");
    SnapshotInfo source = publish(a, "src", 120);
    List<SnapshotRow> sourceRows = rows(a.readCurrent());
    SnapshotInfo before = publish(b, "old", 5);
    List<SnapshotRow> beforeRows = rows(b.readCurrent());

    Job job = newJob("stage");
    SnapshotMapReduceUtil.initSnapshotCopyJob(a.id(), SnapshotSelector.current(), b.id(), "audit-1", job, false);
    SnapshotOutputFormat.setStage(job, true);
    assertTrue(SnapshotMapReduceUtil.runJob(job, false));

    SnapshotId staged = SnapshotOutputFormat.outputSnapshot(job.getConfiguration()).orElseThrow();
    SnapshotInfo info = b.snapshot(staged);
    assertEquals(SnapshotState.STAGED, info.state());
    assertEquals(Optional.of(before.id()), info.parentId(), "staged on the snapshot current then");
    assertEquals(List.of(staged), b.stagedSnapshots().stream().map(SnapshotInfo::id).toList());
    assertEquals(before.id(), b.currentSnapshot().orElseThrow().id(), "the staged snapshot is not current");
    assertEquals(beforeRows, rows(b.readCurrent()), "readers of current still get the old rows");
    assertEquals(sourceRows, rows(b.readSnapshot(staged)), "by id, the staged snapshot holds the job's rows");
    assertEquals(120, info.rowCount());
    assertEquals(source.byteCount(), info.byteCount());
    assertEquals(job.getJobID().toString(), info.summary().get("mapreduce.job.id"));
    assertTrue(b.lockStatus(NewSnapshot.WRITER_LOCK).lease().isEmpty(), "the writer lock was released");

    // the audit reads it by id with a MapReduce job of its own: the input format pins the STAGED snapshot
    SnapshotDataset audit = create("stageAudit");
    Job read = newJob("read staged");
    SnapshotMapReduceUtil.initSnapshotCopyJob(b.id(), SnapshotSelector.snapshot(staged), audit.id(), null, read, false);
    assertTrue(SnapshotMapReduceUtil.runJob(read, false));
    assertEquals(Optional.of(staged), SnapshotInputFormatImpl.pinnedSnapshot(read.getConfiguration()));
    assertEquals(sourceRows, rows(audit.readCurrent()));

    // the run retried: begins nothing, stages nothing new, names the same snapshot
    Job again = newJob("stage again");
    SnapshotMapReduceUtil.initSnapshotCopyJob(a.id(), SnapshotSelector.current(), b.id(), "audit-1", again, false);
    SnapshotOutputFormat.setStage(again, true);
    assertTrue(SnapshotMapReduceUtil.runJob(again, false));
    assertEquals(Optional.of(staged), SnapshotOutputFormat.outputSnapshot(again.getConfiguration()));
    assertEquals(Optional.empty(), SnapshotOutputFormat.handle(again.getConfiguration()));
    assertEquals(List.of(staged), b.stagedSnapshots().stream().map(SnapshotInfo::id).toList());
    assertEquals(before.id(), b.currentSnapshot().orElseThrow().id());

    SnapshotInfo published = b.publish(staged);
    assertEquals(SnapshotState.COMMITTED, published.state());
    assertEquals(staged, b.currentSnapshot().orElseThrow().id());
    assertEquals(sourceRows, rows(b.readCurrent()), "published, it is what readers of current get");
    assertTrue(b.stagedSnapshots().isEmpty());
  }

  /** A staging job that fails stages nothing: its snapshot is aborted, current and the staged list unchanged. */
  @Test
  void aFailedStagingJobStagesNothing() throws Exception {
    SnapshotDataset a = create("stageFailA");
    SnapshotDataset b = create("stageFailB");
    publish(a, "src", 80);
    SnapshotInfo before = publish(b, "old", 5);
    List<SnapshotRow> beforeRows = rows(b.readCurrent());

    Job job = newJob("failing stage");
    SnapshotMapReduceUtil.initSnapshotMapperJob(a.id(), SnapshotSelector.current(), FailingMapper.class,
        ImmutableBytesWritable.class, SnapshotRowWritable.class, job, false);
    SnapshotMapReduceUtil.initSnapshotReducerJob(b.id(), null, null, job, false);
    SnapshotOutputFormat.setStage(job, true);
    SnapshotOutputFormat.setWriteBufferBytes(job, 1024); // rows reach HBase before the failure
    job.setNumReduceTasks(0);
    FailingMapper.rowsInHBase.set(-1);
    assertFalse(SnapshotMapReduceUtil.runJob(job, false));

    SnapshotId failed = SnapshotOutputFormat.outputSnapshot(job.getConfiguration()).orElseThrow();
    assertTrue(FailingMapper.rowsInHBase.get() > 0, "the failed attempt had written rows: " + FailingMapper.rowsInHBase);
    assertEquals(SnapshotState.ABORTED, b.snapshot(failed).state());
    assertTrue(b.stagedSnapshots().isEmpty(), "nothing was staged: " + b.stagedSnapshots());
    assertTrue(b.status().staged().isEmpty());
    assertEquals(before.id(), b.currentSnapshot().orElseThrow().id());
    assertEquals(beforeRows, rows(b.readCurrent()));
    assertThrows(SnapshotNotAvailableException.class, () -> b.readSnapshot(failed));
    assertTrue(b.lockStatus(NewSnapshot.WRITER_LOCK).lease().isEmpty(), "the writer lock was released");
  }

  /** A stage setting that is neither true nor false fails the submission, naming the setting and the value. */
  @Test
  void aBadStageSettingFailsTheSubmissionAndBeginsNothing() throws Exception {
    SnapshotDataset b = create("stageBad");
    SnapshotInfo before = publish(b, "old", 3);
    Job job = newJob("bad stage");
    SnapshotMapReduceUtil.initSnapshotCopyJob(b.id(), SnapshotSelector.current(), b.id(), null, job, false);
    job.getConfiguration().set(SnapshotOutputFormat.STAGE, "yes");
    assertSubmissionFails(job, "snapds.mapreduce.output.stage must be true or false, got 'yes'");
    assertEquals(Optional.empty(), SnapshotOutputFormat.outputSnapshot(job.getConfiguration()), "nothing was begun");
    assertEquals(List.of(before.id()), b.snapshots().stream().map(SnapshotInfo::id).toList());
  }

  // ---- counts: what a reader of the snapshot gets (issue 36 item 5) ----

  /**
   * Two map tasks each emit keys a, b, a: the snapshot holds 2 rows, and the published record
   * says 2 rows and the bytes a reader gets. When the counts were the sum of the task writers'
   * counters it said 6.
   */
  @Test
  void duplicateKeysAcrossTasksAreCountedAsTheRowsTheSnapshotHolds() throws Exception {
    SnapshotDataset a = create("dupA");
    SnapshotDataset b = create("dupB");
    publishAcrossRegions(a, "src", 20, "k010"); // two map tasks

    Job job = newJob("duplicates");
    SnapshotMapReduceUtil.initSnapshotMapperJob(a.id(), SnapshotSelector.current(), DuplicatingMapper.class,
        ImmutableBytesWritable.class, SnapshotRowWritable.class, job, false);
    SnapshotMapReduceUtil.initSnapshotReducerJob(b.id(), null, null, job, false);
    job.setNumReduceTasks(0);
    assertTrue(SnapshotMapReduceUtil.runJob(job, false));

    SnapshotInfo published = b.currentSnapshot().orElseThrow();
    List<SnapshotRow> read = rows(b.readCurrent());
    assertEquals(List.of("a", "b"), read.stream().map(r -> Bytes.toString(r.key())).toList());
    assertEquals(read.size(), published.rowCount(), "the record counts the rows a reader gets");
    assertEquals(storedBytes(read), published.byteCount(), "and their bytes");
  }

  /** Ignores its input; emits a, b, a once per task. */
  public static final class DuplicatingMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, ImmutableBytesWritable, SnapshotRowWritable> {
    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRowWritable value, Context context) {}

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      context.write(null, new SnapshotRowWritable(row("a", "d", "first a")));
      context.write(null, new SnapshotRowWritable(row("b", "d", "b")));
      context.write(null, new SnapshotRowWritable(row("a", "d", "second a")));
    }
  }

  /** Key once, then qualifier and value of each cell: how a snapshot's bytes are counted. */
  static long storedBytes(List<SnapshotRow> rows) {
    long bytes = 0;
    for (SnapshotRow r : rows) {
      bytes += r.key().length;
      for (var cells : r.families().values()) {
        for (var cell : cells.entrySet()) {
          bytes += cell.getKey().length + cell.getValue().length;
        }
      }
    }
    return bytes;
  }

  private static SnapshotRow row(String key, String family, String value) {
    java.util.NavigableMap<byte[], byte[]> cells = new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
    cells.put(Bytes.toBytes("v"), Bytes.toBytes(value));
    java.util.NavigableMap<byte[], java.util.NavigableMap<byte[], byte[]>> families =
        new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(Bytes.toBytes(family), cells);
    return new SnapshotRow(Bytes.toBytes(key), families);
  }

  /**
   * Rows written into the job's snapshot beside its tasks' record writers (one per map task here,
   * through a row writer of its own) are in the snapshot, so they are counted: the record says
   * what a reader gets. (Under issue #12's task records they were read back but not counted.)
   */
  @Test
  void rowsWrittenBesideTheTasksAreCountedAsAReaderGetsThem() throws Exception {
    SnapshotDataset a = create("countA");
    SnapshotDataset b = create("countB");
    publishAcrossRegions(a, "src", 150, "k050", "k100"); // three map tasks

    Job job = newJob("counted");
    SnapshotMapReduceUtil.initSnapshotMapperJob(a.id(), SnapshotSelector.current(), SideWritingMapper.class,
        ImmutableBytesWritable.class, SnapshotRowWritable.class, job, false);
    SnapshotMapReduceUtil.initSnapshotReducerJob(b.id(), null, null, job, false);
    job.setNumReduceTasks(0);
    assertTrue(SnapshotMapReduceUtil.runJob(job, false));

    SnapshotInfo copy = b.currentSnapshot().orElseThrow();
    List<SnapshotRow> read = rows(b.readCurrent());
    assertEquals(150 + 3, read.size(), "the three rows written beside the tasks are in the snapshot");
    assertEquals(read.size(), copy.rowCount());
    assertEquals(storedBytes(read), copy.byteCount());
  }

  /** Copies rows; first writes one row of its own into the job's snapshot, past the output format. */
  public static final class SideWritingMapper
      extends Mapper<ImmutableBytesWritable, SnapshotRowWritable, ImmutableBytesWritable, SnapshotRowWritable> {
    @Override
    protected void setup(Context context) throws IOException {
      Configuration conf = context.getConfiguration();
      SnapshotId building = SnapshotOutputFormat.handle(conf).orElseThrow().snapshotId();
      try (JobDatasets datasets = JobDatasets.open(conf);
          var side = datasets.open(SnapshotOutputFormat.dataset(conf)).openRowWriter(building, 1024)) {
        side.put(Bytes.toBytes("side-" + context.getTaskAttemptID().getTaskID().getId()), "d", Bytes.toBytes("v"),
            Bytes.toBytes("x"));
      }
    }
  }

  /**
   * The task commit protocol as MapReduce drives it, on the real output format and committer
   * (the local job runner never re-runs a task): a task that runs again over the same keys, an
   * attempt that wrote and closed but never committed (a failed or speculative one, with keys
   * its task's committed attempt did not write) and a map task that opened no writer: the
   * record counts what the snapshot holds, whoever wrote it.
   */
  @Test
  void theCountsAreTheRowsTheSnapshotHoldsWhicheverAttemptsWroteThem() throws Exception {
    SnapshotDataset b = create("attempts");
    Job job = newJob("attempts");
    SnapshotOutputFormat.setOutput(job, b.id());
    SnapshotOutputFormat<ImmutableBytesWritable> format = new SnapshotOutputFormat<>();
    format.checkOutputSpecs(job); // begins the snapshot
    Configuration conf = job.getConfiguration();
    org.apache.hadoop.mapreduce.JobID jobId = new org.apache.hadoop.mapreduce.JobID("attempts", 1);
    org.apache.hadoop.mapreduce.OutputCommitter committer =
        format.getOutputCommitter(attempt(conf, jobId, 0, 0));
    committer.setupJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(conf, jobId));

    runAttempt(format, committer, attempt(conf, jobId, 0, 0), 0, 10, true);
    runAttempt(format, committer, attempt(conf, jobId, 0, 1), 0, 10, true); // re-run: same keys
    runAttempt(format, committer, attempt(conf, jobId, 1, 0), 10, 5, false); // failed, never committed
    runAttempt(format, committer, attempt(conf, jobId, 1, 1), 10, 5, true);
    runAttempt(format, committer, attempt(conf, jobId, 1, 2), 10, 7, false); // speculative, lost the race
    org.apache.hadoop.mapreduce.TaskAttemptContext noWriter = attempt(conf, jobId, 2, 0);
    if (committer.needsTaskCommit(noWriter)) {
      committer.commitTask(noWriter);
    }
    committer.commitJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(conf, jobId));

    SnapshotInfo published = b.currentSnapshot().orElseThrow();
    List<SnapshotRow> read = rows(b.readCurrent());
    assertEquals(17, read.size(), "the speculative attempt's two extra rows are in HBase");
    assertEquals(read.size(), published.rowCount());
    assertEquals(storedBytes(read), published.byteCount());
  }

  /**
   * Issue 36 item 6: an attempt that outlives its job (a losing speculative attempt, or one killed
   * whose process still runs) holds buffered rows when the job commits. Sending them would change
   * the published snapshot; the record writer checks the snapshot is still BUILDING before each
   * batch, so they are refused, with a typed error, and the published snapshot stays as it was.
   */
  @Test
  void anAttemptThatOutlivesItsJobSendsNothingIntoThePublishedSnapshot() throws Exception {
    SnapshotDataset b = create("zombie");
    Job job = newJob("zombie");
    SnapshotOutputFormat.setOutput(job, b.id());
    SnapshotOutputFormat.setWriteBufferBytes(job, 1024);
    assertFalse(job.getConfiguration().getBoolean(Job.MAP_SPECULATIVE, true)
        || job.getConfiguration().getBoolean(Job.REDUCE_SPECULATIVE, true),
        "setOutput switches speculative execution off");
    SnapshotOutputFormat<ImmutableBytesWritable> format = new SnapshotOutputFormat<>();
    format.checkOutputSpecs(job);
    Configuration conf = job.getConfiguration();
    org.apache.hadoop.mapreduce.JobID jobId = new org.apache.hadoop.mapreduce.JobID("zombie", 1);
    org.apache.hadoop.mapreduce.OutputCommitter committer = format.getOutputCommitter(attempt(conf, jobId, 0, 0));
    committer.setupJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(conf, jobId));

    // the loser of a speculative race: it has written rows the winner did not, still buffered
    org.apache.hadoop.mapreduce.TaskAttemptContext loser = attempt(conf, jobId, 0, 1);
    org.apache.hadoop.mapreduce.RecordWriter<ImmutableBytesWritable, SnapshotRowWritable> late =
        format.getRecordWriter(loser);
    late.write(null, new SnapshotRowWritable(row("z-late", "d", "from the loser")));
    runAttempt(format, committer, attempt(conf, jobId, 0, 0), 0, 10, true); // the winner
    committer.commitJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(conf, jobId));
    SnapshotInfo published = b.currentSnapshot().orElseThrow();
    List<SnapshotRow> before = rows(b.readCurrent());
    assertEquals(10, before.size());

    // a batch filled after the publish, and the last one at close: neither is sent
    SnapshotNotAvailableException refused = assertThrows(SnapshotNotAvailableException.class, () -> {
      for (int i = 0; i < 100; i++) {
        late.write(null, new SnapshotRowWritable(row(String.format("z%03d", i), "d", "late row " + i)));
      }
    });
    assertTrue(refused.getMessage().contains(published.id().toString()), refused.getMessage());
    assertThrows(SnapshotNotAvailableException.class, () -> late.close(loser));

    List<SnapshotRow> after = rows(b.readCurrent());
    assertEquals(before, after, "the published snapshot did not change");
    assertEquals(published.rowCount(), after.size());
  }

  private static org.apache.hadoop.mapreduce.TaskAttemptContext attempt(Configuration conf,
      org.apache.hadoop.mapreduce.JobID job, int task, int attempt) {
    return new org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl(conf,
        new org.apache.hadoop.mapreduce.TaskAttemptID(new org.apache.hadoop.mapreduce.TaskID(job,
            org.apache.hadoop.mapreduce.TaskType.MAP, task), attempt));
  }

  private static void runAttempt(SnapshotOutputFormat<ImmutableBytesWritable> format,
      org.apache.hadoop.mapreduce.OutputCommitter committer, org.apache.hadoop.mapreduce.TaskAttemptContext context,
      int firstKey, int rows, boolean commits) throws Exception {
    org.apache.hadoop.mapreduce.RecordWriter<ImmutableBytesWritable, SnapshotRowWritable> writer =
        format.getRecordWriter(context);
    for (int i = firstKey; i < firstKey + rows; i++) {
      byte[] key = Bytes.toBytes(String.format("k%03d", i));
      java.util.NavigableMap<byte[], byte[]> cells = new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
      cells.put(Bytes.toBytes("v"), Bytes.toBytes("v" + i));
      java.util.NavigableMap<byte[], java.util.NavigableMap<byte[], byte[]>> families =
          new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
      families.put(Bytes.toBytes("d"), cells);
      writer.write(null, new SnapshotRowWritable(new SnapshotRow(key, families)));
    }
    writer.close(context);
    if (!committer.needsTaskCommit(context)) {
      return;
    }
    if (commits) {
      committer.commitTask(context);
    } else {
      committer.abortTask(context);
    }
  }

  /**
   * A restarted application master whose committer does not recover (attempt 2 of
   * {@code mapreduce.am.max-attempts}) calls abortJob(FAILED) on a fresh committer before it sets
   * the job up again (Hadoop's {@code MRAppMaster.cleanUpPreviousJobOutput}), then runs every task
   * again. That clean-up must leave the snapshot BUILDING; the job ends, in this attempt, with a
   * commit or a real abort. Found on YARN (integration-tests-yarn): the snapshot was ABORTED by the
   * clean-up and the second application master's setupJob failed, so every job whose first
   * application master died failed.
   */
  @Test
  void aRestartedApplicationMastersCleanUpBeforeSetupLeavesTheSnapshotToTheRerun() throws Exception {
    SnapshotDataset b = create("amRestart");
    Job job = newJob("am restart");
    SnapshotOutputFormat.setOutput(job, b.id());
    SnapshotOutputFormat<ImmutableBytesWritable> format = new SnapshotOutputFormat<>();
    format.checkOutputSpecs(job);
    Configuration conf = job.getConfiguration();
    SnapshotId id = SnapshotOutputFormat.handle(conf).orElseThrow().snapshotId();
    org.apache.hadoop.mapreduce.JobID jobId = new org.apache.hadoop.mapreduce.JobID("amRestart", 1);

    // attempt 1 sets the job up, a task writes its rows, and the application master dies
    Configuration first = new Configuration(conf);
    first.setInt(org.apache.hadoop.mapreduce.MRJobConfig.APPLICATION_ATTEMPT_ID, 1);
    org.apache.hadoop.mapreduce.OutputCommitter dead = format.getOutputCommitter(attempt(first, jobId, 0, 0));
    dead.setupJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(first, jobId));
    runAttempt(format, dead, attempt(first, jobId, 0, 0), 0, 10, true);

    // attempt 2: the clean-up of the previous attempt's output, then the job again
    Configuration second = new Configuration(conf);
    second.setInt(org.apache.hadoop.mapreduce.MRJobConfig.APPLICATION_ATTEMPT_ID, 2);
    org.apache.hadoop.mapreduce.OutputCommitter restarted = format.getOutputCommitter(attempt(second, jobId, 0, 0));
    restarted.abortJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(second, jobId),
        org.apache.hadoop.mapreduce.JobStatus.State.FAILED);
    assertEquals(SnapshotState.BUILDING, b.snapshot(id).state(), "the clean-up leaves the snapshot to the re-run");
    restarted.setupJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(second, jobId));
    runAttempt(format, restarted, attempt(second, jobId, 0, 1), 0, 10, true);
    restarted.commitJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(second, jobId));

    SnapshotInfo published = b.currentSnapshot().orElseThrow();
    assertEquals(id, published.id());
    assertEquals(10, rows(b.readCurrent()).size());
    assertEquals(10, published.rowCount());

    // a second attempt that was set up and then fails does abort
    SnapshotDataset c = create("amRestartFails");
    Job failing = newJob("am restart, then the job fails");
    SnapshotOutputFormat.setOutput(failing, c.id());
    format.checkOutputSpecs(failing);
    Configuration third = new Configuration(failing.getConfiguration());
    third.setInt(org.apache.hadoop.mapreduce.MRJobConfig.APPLICATION_ATTEMPT_ID, 2);
    SnapshotId failed = SnapshotOutputFormat.handle(third).orElseThrow().snapshotId();
    org.apache.hadoop.mapreduce.OutputCommitter again = format.getOutputCommitter(attempt(third, jobId, 0, 0));
    again.setupJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(third, jobId));
    again.abortJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(third, jobId),
        org.apache.hadoop.mapreduce.JobStatus.State.FAILED);
    assertEquals(SnapshotState.ABORTED, c.snapshot(failed).state());
  }

  /**
   * The committer says its commit is repeatable, so an application master that finds a commit
   * begun by the previous one (Hadoop's COMMIT_STARTED alone) runs the job again and commits
   * instead of ending it at start. Should the previous application master still be committing
   * meanwhile, the two commits publish the snapshot once, with the counts of what it holds.
   * (On YARN: SnapshotJobsOnYarnIT.aCopyWhoseApplicationMasterDiesOnceInItsCommitPublishesOnceWhatAReaderGets.)
   */
  @Test
  void aCommitTheNextApplicationMasterRepeatsPublishesOnce() throws Exception {
    SnapshotDataset b = create("commitTwice");
    Job job = newJob("commit twice");
    SnapshotOutputFormat.setOutput(job, b.id());
    SnapshotOutputFormat<ImmutableBytesWritable> format = new SnapshotOutputFormat<>();
    format.checkOutputSpecs(job);
    Configuration conf = job.getConfiguration();
    SnapshotId id = SnapshotOutputFormat.handle(conf).orElseThrow().snapshotId();
    org.apache.hadoop.mapreduce.JobID jobId = new org.apache.hadoop.mapreduce.JobID("commitTwice", 1);

    // attempt 1 is set up and its task writes; its commit is begun when the application master is lost
    Configuration first = new Configuration(conf);
    first.setInt(org.apache.hadoop.mapreduce.MRJobConfig.APPLICATION_ATTEMPT_ID, 1);
    org.apache.hadoop.mapreduce.JobContext firstJob = new org.apache.hadoop.mapreduce.task.JobContextImpl(first, jobId);
    org.apache.hadoop.mapreduce.OutputCommitter lost = format.getOutputCommitter(attempt(first, jobId, 0, 0));
    lost.setupJob(firstJob);
    runAttempt(format, lost, attempt(first, jobId, 0, 0), 0, 10, true);
    assertTrue(lost.isCommitJobRepeatable(firstJob), "the next application master may commit again");

    // attempt 2 runs the job again and commits
    Configuration second = new Configuration(conf);
    second.setInt(org.apache.hadoop.mapreduce.MRJobConfig.APPLICATION_ATTEMPT_ID, 2);
    org.apache.hadoop.mapreduce.JobContext secondJob = new org.apache.hadoop.mapreduce.task.JobContextImpl(second, jobId);
    org.apache.hadoop.mapreduce.OutputCommitter next = format.getOutputCommitter(attempt(second, jobId, 0, 0));
    next.abortJob(secondJob, org.apache.hadoop.mapreduce.JobStatus.State.FAILED);
    next.setupJob(secondJob);
    runAttempt(format, next, attempt(second, jobId, 0, 1000), 0, 12, true);
    next.commitJob(secondJob);

    // the lost application master's commit, still under way, comes after: it fails, and the
    // abortJob that follows a failed commit leaves the published snapshot alone
    Exception late = assertThrows(Exception.class, () -> lost.commitJob(firstJob));
    lost.abortJob(firstJob, org.apache.hadoop.mapreduce.JobStatus.State.FAILED);
    assertEquals(SnapshotState.COMMITTED, b.snapshot(id).state(), "the late commit failed with " + late);
    assertEquals(List.of(id), b.snapshots().stream().filter(i -> i.state() == SnapshotState.COMMITTED)
        .map(SnapshotInfo::id).toList(), "published once");
    SnapshotInfo published = b.currentSnapshot().orElseThrow();
    assertEquals(id, published.id());
    List<SnapshotRow> got = rows(b.readCurrent());
    assertEquals(12, got.size());
    assertEquals(got.size(), published.rowCount(), "the counts are what a reader gets");
    assertEquals(1, b.snapshots().size(), "nothing else was begun");
  }

  // ---- run id ----

  @Test
  void rerunWithSameRunIdPublishesNoSecondSnapshot() throws Exception {
    SnapshotDataset a = create("runA");
    SnapshotDataset b = create("runB");
    SnapshotInfo first = publish(a, "first", 20);

    Job once = newJob("run once");
    SnapshotMapReduceUtil.initSnapshotCopyJob(a.id(), SnapshotSelector.current(), b.id(), "daily-1", once, false);
    assertTrue(SnapshotMapReduceUtil.runJob(once, false));
    SnapshotInfo published = b.currentSnapshot().orElseThrow();
    assertEquals(Optional.of("daily-1"), published.runId());

    publish(a, "second", 30); // the re-run reads other rows: none of them may show up
    Job again = newJob("run again");
    SnapshotMapReduceUtil.initSnapshotCopyJob(a.id(), SnapshotSelector.current(), b.id(), "daily-1", again, false);
    assertTrue(SnapshotMapReduceUtil.runJob(again, false));

    assertEquals(Optional.of(published.id()), SnapshotOutputFormat.alreadyPublished(again.getConfiguration()));
    assertEquals(List.of(published.id()), b.snapshots().stream().map(SnapshotInfo::id).toList());
    assertEquals(rows(a.readSnapshot(first.id())), rows(b.readCurrent()));
  }

  // ---- selection and splits ----

  @Test
  void splitsFollowRegionsInsideTheSnapshotAndSelectionByIdTagOrTimeReadsIt() throws Exception {
    SnapshotDataset a = create("regions");
    SnapshotInfo s1 = publishAcrossRegions(a, "one", 300, "k100", "k200");
    Thread.sleep(5); // history times are in milliseconds: keep "between" apart from both publishes
    Instant between = Instant.now();
    Thread.sleep(5);
    SnapshotInfo s2 = publish(a, "two", 50);
    SnapshotId id1 = s1.id();
    SnapshotKeys k1 = s1.keys();
    SnapshotKeys k2 = s2.keys();

    Job asOf = newJob("as of");
    SnapshotInputFormat.setInput(asOf, a.id(), SnapshotSelector.asOf(between));
    List<SnapshotSplit> splits = splits(asOf);
    assertEquals(List.of(
        range(k1.start(), key(k1, "k100")),
        range(key(k1, "k100"), key(k1, "k200")),
        range(key(k1, "k200"), k1.stop())), splits.stream().map(SnapshotMapReduceIT::range).toList());
    assertTrue(splits.stream().allMatch(s -> s.getLocations().length == 1), "every split names its host");

    // s2's range was pre-split at s1's boundaries when it began (issue #12): one split per inherited region
    Job byId = newJob("by id");
    SnapshotInputFormat.setInput(byId, a.id(), SnapshotSelector.snapshot(s2.id()));
    assertEquals(List.of(
        range(k2.start(), key(k2, "k100")),
        range(key(k2, "k100"), key(k2, "k200")),
        range(key(k2, "k200"), k2.stop())),
        splits(byId).stream().map(SnapshotMapReduceIT::range).toList());

    // by tag: the tagged snapshot (not the current one), resolved and pinned when the splits are computed
    a.manageTags(id1).tag("gold").commit();
    Job byTag = newJob("by tag");
    SnapshotInputFormat.setInput(byTag, a.id(), SnapshotSelector.tag("gold"));
    assertEquals(splits.stream().map(SnapshotMapReduceIT::range).toList(),
        splits(byTag).stream().map(SnapshotMapReduceIT::range).toList());

    // the whole job over three splits, as of the time between the publishes
    SnapshotDataset out = create("regionsOut");
    Job copy = newJob("copy as of");
    SnapshotMapReduceUtil.initSnapshotCopyJob(a.id(), SnapshotSelector.asOf(between), out.id(), null, copy, false);
    assertTrue(SnapshotMapReduceUtil.runJob(copy, false));
    assertEquals(rows(a.readSnapshot(id1)), rows(out.readCurrent()));

    // the old API adapter gives the same splits, and the same rows, here projected to one column
    JobConf old = new JobConf(newJob("mapred").getConfiguration());
    io.snapds.dataset.mapreduce.mapred.SnapshotInputFormat.setInput(old, a.id(), SnapshotSelector.asOf(between));
    SnapshotInputFormatImpl.setColumns(old, "e:n");
    io.snapds.dataset.mapreduce.mapred.SnapshotInputFormat format =
        new io.snapds.dataset.mapreduce.mapred.SnapshotInputFormat();
    List<SnapshotRow> read = new ArrayList<>();
    try {
      org.apache.hadoop.mapred.InputSplit[] oldSplits = format.getSplits(old, 1);
      assertEquals(3, oldSplits.length);
      for (org.apache.hadoop.mapred.InputSplit split : oldSplits) {
        var reader = format.getRecordReader(split, old, Reporter.NULL);
        ImmutableBytesWritable key = reader.createKey();
        SnapshotRowWritable value = reader.createValue();
        while (reader.next(key, value)) {
          read.add(new SnapshotRow(key.copyBytes(), value.get().families()));
        }
        reader.close();
      }
    } finally {
      assertTrue(SnapshotInputFormatImpl.releasePin(old));
    }
    List<SnapshotRow> projected = new ArrayList<>();
    try (RowScanner rows = a.readSnapshot(id1).scan(RowScan.all().column("e", "n"))) {
      rows.forEach(projected::add);
    }
    assertEquals(100, projected.size()); // every third of 300 rows has e:n
    assertEquals(projected, read);
  }

  // ---- the writer lease across the hand-off from submission to application master (issue #36 item 3) ----

  /**
   * The application master's {@code setupJob} comes after the lease as granted at submission has
   * run out (it waited in a queue), while another writer waits for the lock and a reconcile pass
   * looks for expired leases: the submitting process renewed the lease meanwhile, so the job
   * publishes, and the other writer gets the lock only once the job released it.
   */
  @Test
  void aJobWhoseApplicationMasterStartsAfterTheLeaseWouldHaveLapsedStillPublishes() throws Exception {
    SnapshotDataset b = cluster.datasets().create(MiniCluster.uniqueDataset("handoff"), DatasetProperties.builder()
        .families("d", "e").lockSettings(LockSettings.builder().leaseDuration(java.time.Duration.ofSeconds(3))
            .acquireTimeout(java.time.Duration.ofMinutes(3)).build()).build());
    Job job = newJob("handoff");
    SnapshotOutputFormat.setOutput(job, b.id());
    SnapshotOutputFormat<ImmutableBytesWritable> format = new SnapshotOutputFormat<>();
    format.checkOutputSpecs(job); // the submission begins the snapshot
    Configuration conf = job.getConfiguration();
    SnapshotId building = SnapshotOutputFormat.handle(conf).orElseThrow().snapshotId();
    LockLease granted = b.lockStatus(NewSnapshot.WRITER_LOCK).lease().orElseThrow();

    CompletableFuture<SnapshotInfo> other = CompletableFuture.supplyAsync(() -> publish(b, "other", 4));
    awaitCondition(() -> b.lockStatus(NewSnapshot.WRITER_LOCK).waiters() >= 1 || other.isDone());
    // the application master starts later than the lease as granted lasted
    awaitCondition(() -> Instant.now().isAfter(granted.expiresAt().plusMillis(500)));
    ReconcileResult pass = Reconciler.runOnce(b, "reconciler", java.time.Duration.ofHours(1));
    assertTrue(pass.repairs().isEmpty(), "the reconcile pass fenced nothing: " + pass.repairs());
    assertFalse(other.isDone(), "the other writer was handed the lock during the hand-off: " + other);

    org.apache.hadoop.mapreduce.JobID jobId = new org.apache.hadoop.mapreduce.JobID("handoff", 1);
    org.apache.hadoop.mapreduce.OutputCommitter committer = format.getOutputCommitter(attempt(conf, jobId, 0, 0));
    committer.setupJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(conf, jobId));
    runAttempt(format, committer, attempt(conf, jobId, 0, 0), 0, 10, true);
    committer.commitJob(new org.apache.hadoop.mapreduce.task.JobContextImpl(conf, jobId));

    SnapshotInfo published = b.snapshot(building);
    assertEquals(SnapshotState.COMMITTED, published.state());
    assertEquals(10, rows(b.readSnapshot(building)).size());
    assertEquals(10, published.rowCount());
    assertFalse(SnapshotOutputFormat.releaseLease(conf), "the committer ended the submission's renewal");
    SnapshotInfo next = other.get(3, TimeUnit.MINUTES);
    assertEquals(granted.token(), published.fencingToken());
    assertEquals(published.fencingToken() + 1, next.fencingToken(), "no grant or break between the job and the other");
    assertEquals(building, next.parentId().orElseThrow(), "the other writer began after the job published");
  }

  /** Polls {@code condition} (a lease is a matter of time: this waits for time to pass, or for a waiter). */
  private static void awaitCondition(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "condition not reached in 2 minutes");
      Thread.sleep(20);
    }
  }

  // ---- the core's detach, which the output format relies on ----

  @Test
  void detachedSnapshotSurvivesCloseAndIsPublishedWhereItIsResumed() {
    SnapshotDataset ds = create("detach");
    byte[] key = Bytes.toBytes("k");
    SnapshotWriter writer = ds.newSnapshot().begin();
    writer.put(key, "d", "v", Bytes.toBytes("written before detach"));
    String handle = writer.detach().encode();
    writer.close(); // after detach: no abort
    SnapshotId id = SnapshotHandle.decode(handle).snapshotId();
    assertEquals(SnapshotState.BUILDING, ds.snapshot(id).state());
    assertThrows(IllegalStateException.class, () -> writer.put(key, "d", "v", Bytes.toBytes("x")));

    SnapshotDataset elsewhere = cluster.datasets().open(ds.id());
    assertEquals(id, elsewhere.resume(SnapshotHandle.decode(handle)).commit().id());
    assertEquals("written before detach",
        Bytes.toString(ds.readCurrent().get(key).orElseThrow().value("d", "v")));
  }

  // ---- configuration errors at submission ----

  @Test
  void badInputConfigurationFailsAtSubmissionNamingTheValue() throws Exception {
    SnapshotDataset a = create("badIn");
    SnapshotInfo old = publish(a, "old", 3);
    publish(a, "new", 3);
    a.expireSnapshots().expire(old.id()).commit();

    Job noDataset = newJob("no dataset");
    noDataset.setInputFormatClass(SnapshotInputFormat.class);
    noDataset.setOutputFormatClass(NullOutputFormat.class);
    assertSubmissionFails(noDataset, "snapds.mapreduce.input.dataset");

    Job unknown = mapOnly("unknown snapshot", a.id(), SnapshotSelector.snapshot(SnapshotId.of(987654321L)));
    assertSubmissionFails(unknown, "snapshot 987654321 does not exist in dataset " + a.id());

    Job expired = mapOnly("expired snapshot", a.id(), SnapshotSelector.snapshot(old.id()));
    assertSubmissionFails(expired, "snapshot " + old.id() + " of dataset " + a.id() + " is EXPIRED");

    Job tooEarly = mapOnly("before the first snapshot", a.id(), SnapshotSelector.asOf(Instant.EPOCH));
    assertSubmissionFails(tooEarly, "had no current snapshot at " + Instant.EPOCH);

    Job missing = mapOnly("missing dataset", DatasetId.of("t", "no_such_dataset"), SnapshotSelector.current());
    assertSubmissionFails(missing, "t:no_such_dataset");
  }

  @Test
  void badOutputConfigurationFailsAtSubmissionAndAbortsWhatItBegan() throws Exception {
    SnapshotDataset b = create("badOut");
    SnapshotInfo before = publish(b, "old", 3);

    Job noDataset = newJob("no output dataset");
    SnapshotInputFormat.setInput(noDataset, b.id(), SnapshotSelector.current());
    noDataset.setOutputFormatClass(SnapshotOutputFormat.class);
    noDataset.setNumReduceTasks(0);
    assertSubmissionFails(noDataset, "snapds.mapreduce.output.dataset");

    // the output snapshot is begun, then the input turns out to be wrong: the begun one is aborted
    Job badInput = newJob("bad input, good output");
    SnapshotMapReduceUtil.initSnapshotCopyJob(b.id(), SnapshotSelector.snapshot(SnapshotId.of(123456789L)),
        b.id(), null, badInput, false);
    assertSubmissionFails(badInput, "snapshot 123456789 does not exist");
    SnapshotId begun = SnapshotOutputFormat.handle(badInput.getConfiguration()).orElseThrow().snapshotId();
    assertEquals(SnapshotState.ABORTED, b.snapshot(begun).state());
    assertEquals(before.id(), b.currentSnapshot().orElseThrow().id());
    assertTrue(b.lockStatus(NewSnapshot.WRITER_LOCK).lease().isEmpty(), "the writer lock was released");
  }

  private Job mapOnly(String name, DatasetId dataset, SnapshotSelector selector) throws IOException {
    Job job = newJob(name);
    SnapshotInputFormat.setInput(job, dataset, selector);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setNumReduceTasks(0);
    return job;
  }

  /** runJob throws only when the submission fails; a job that ran and failed returns false. */
  private static void assertSubmissionFails(Job job, String expectedMessage) {
    Exception e = assertThrows(Exception.class, () -> SnapshotMapReduceUtil.runJob(job, false));
    StringBuilder messages = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      messages.append(t).append('\n');
    }
    assertTrue(messages.toString().contains(expectedMessage), "expected '" + expectedMessage + "' in:\n" + messages);
  }

  // ---- helpers ----

  private Job newJob(String name) throws IOException {
    return Jobs.newJob(cluster, name);
  }

  private SnapshotDataset create(String prefix) {
    return cluster.datasets().create(MiniCluster.uniqueDataset(prefix),
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

  /**
   * Publishes like {@link #publish}, after splitting the data table at the given user keys inside
   * the new snapshot's range (while that range is still empty, so the daughters split at once).
   */
  private SnapshotInfo publishAcrossRegions(SnapshotDataset ds, String tag, int rows, String... splitKeys)
      throws Exception {
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (String k : splitKeys) {
        splitAt(ds.id().dataTable(), key(w.snapshotKeys(), k));
      }
      write(w, tag, rows);
      return w.commit();
    }
  }

  private static List<SnapshotRow> rows(SnapshotReader reader) {
    List<SnapshotRow> out = new ArrayList<>();
    try (RowScanner rows = reader.scan(RowScan.all())) {
      rows.forEach(out::add);
    }
    return out;
  }

  private static byte[] key(SnapshotKeys snapshot, String userKey) {
    return snapshot.rowKey(Bytes.toBytes(userKey));
  }

  private static String range(byte[] start, byte[] stop) {
    return "[" + Bytes.toStringBinary(start) + ", " + Bytes.toStringBinary(stop) + ")";
  }

  private static String range(SnapshotSplit split) {
    return range(split.startRow(), split.stopRow());
  }

  private static List<SnapshotSplit> splits(Job job) throws IOException {
    try {
      return SnapshotInputFormatImpl.getSplits(job.getConfiguration());
    } finally {
      SnapshotInputFormat.releasePin(job);
    }
  }

  private void splitAt(TableName table, byte[] point) throws Exception {
    Jobs.splitAt(cluster, table, point);
  }

}
