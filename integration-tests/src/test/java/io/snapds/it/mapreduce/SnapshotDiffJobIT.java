package io.snapds.it.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.DiffScanner;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.mapreduce.RowChangeWritable;
import io.snapds.dataset.mapreduce.SnapshotDiffInputFormat;
import io.snapds.dataset.read.DiffRead;
import io.snapds.dataset.read.DiffSplit;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 40: the diff of two snapshots as a MapReduce input ({@link SnapshotDiffInputFormat}, on
 * the core's {@link DiffRead}): the splits cut where a region of either snapshot begins, the
 * changes of all map tasks are exactly the Java API's diff, both snapshots stay pinned while the
 * job runs (the older one expired and cleaned up under it), and the pins go when it ends.
 */
@ExtendWith(MiniClusterExtension.class)
class SnapshotDiffJobIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aDiffJobGetsExactlyTheJavaApisChangesWhileItsOlderSnapshotIsExpiredAndCleanedUp() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("diffjob"),
        DatasetProperties.builder().families("d", "e").build());
    SnapshotInfo older;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      Jobs.splitAt(cluster, ds.id().dataTable(), w.snapshotKeys().rowKey(Bytes.toBytes("k020")));
      for (int i = 0; i < 60; i++) {
        put(w, i, "v" + i);
      }
      older = w.commit();
    }
    SnapshotInfo newer;
    try (SnapshotWriter w = ds.newSnapshot().begin()) { // inherits the region start at k020
      Jobs.splitAt(cluster, ds.id().dataTable(), w.snapshotKeys().rowKey(Bytes.toBytes("k045")));
      for (int i = 0; i < 70; i++) {
        if (i % 7 != 0) { // removed (and k063 never added)
          put(w, i, i % 5 == 0 ? "changed" + i : "v" + i); // i >= 60 are added
        }
      }
      newer = w.commit();
    }
    List<String> expected = new ArrayList<>();
    try (DiffScanner diff = ds.diff(SnapshotSelector.snapshot(older.id()), SnapshotSelector.current(), RowScan.all())) {
      diff.forEach(c -> expected.add(line(c)));
    }
    assertEquals(9 + 9 + 10, expected.size(), "9 removed, 9 added, 10 changed: " + expected);

    // the plan: a piece between consecutive region starts of either snapshot, the same user keys on both sides
    try (DiffRead read = DiffRead.pin(cluster.connection(), ds, SnapshotSelector.snapshot(older.id()),
        SnapshotSelector.current(), "test", Duration.ofMinutes(5))) {
      List<DiffSplit> splits = read.planSplits(RowScan.all());
      assertEquals(List.of("[, k020)", "[k020, k045)", "[k045, )"), splits.stream().map(s -> userRange(s, true)).toList());
      assertEquals(List.of("[, k020)", "[k020, k045)", "[k045, )"), splits.stream().map(s -> userRange(s, false)).toList());
    }

    Job job = Jobs.newJob(cluster, "diff");
    SnapshotDiffInputFormat.setInput(job, ds.id(), SnapshotSelector.snapshot(older.id()), SnapshotSelector.current());
    job.setMapperClass(CollectingMapper.class);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setNumReduceTasks(0);
    CollectingMapper.reset();
    CompletableFuture<Boolean> run = Jobs.runAsync(job);
    // the local runner runs the three map tasks one after the other: the later two open their
    // scanners after the older snapshot was expired and cleanup ran
    assertTrue(CollectingMapper.first.await(2, TimeUnit.MINUTES), "the mapper never got a change");
    ds.expireSnapshots().expire(older.id()).commit();
    ds.cleanup();
    assertEquals(60, cluster.rawRows(ds.id(), older.keys()), "cleanup kept the pinned older snapshot's rows");
    CollectingMapper.proceed.countDown();
    assertTrue(run.get(5, TimeUnit.MINUTES), "the job succeeded");

    List<String> got = new ArrayList<>(CollectingMapper.seen);
    got.sort(null);
    List<String> sorted = new ArrayList<>(expected);
    sorted.sort(null);
    assertEquals(sorted, got, "the job's changes are the Java API's");
    assertEquals(String.valueOf(older.id()), job.getConfiguration().get(SnapshotDiffInputFormat.PINNED_FROM));
    assertEquals(String.valueOf(newer.id()), job.getConfiguration().get(SnapshotDiffInputFormat.PINNED_TO));
    LockTable locks = new LockTable(cluster.connection(), ds.id().lockTable(), Clock.systemUTC());
    assertEquals(0, locks.livePins(older.id()) + locks.livePins(newer.id()), "runJob released both pins");
    assertFalse(SnapshotDiffInputFormat.releasePins(job), "nothing left to release");
    ds.cleanup();
    assertEquals(0, cluster.rawRows(ds.id(), older.keys()), "once the job ended, cleanup deleted the older snapshot");
  }

  @Test
  void aBadSelectorSettingIsRefusedAtSubmissionNamingIt() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("diffbad"), DatasetProperties.defaults());
    Job job = Jobs.newJob(cluster, "diff-bad");
    SnapshotDiffInputFormat.setInput(job, ds.id(), SnapshotSelector.current(), SnapshotSelector.current());
    job.getConfiguration().set(SnapshotDiffInputFormat.FROM, "snap:12");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SnapshotDiffInputFormat().getSplits(job));
    assertEquals("invalid snapds.mapreduce.input.diff.from 'snap:12': use current, snapshot:ID, tag:NAME or"
        + " asof:EPOCH_MILLIS (unknown kind 'snap')", e.getMessage());
    job.getConfiguration().set(SnapshotDiffInputFormat.FROM, "tag:nosuch");
    assertThrows(io.snapds.dataset.SnapshotNotAvailableException.class,
        () -> new SnapshotDiffInputFormat().getSplits(job));
    assertEquals(null, job.getConfiguration().get(SnapshotDiffInputFormat.PINNED_FROM), "nothing was pinned");
  }

  /** Collects every change as a line; pauses on the first until the test lets it go on. */
  public static final class CollectingMapper extends Mapper<ImmutableBytesWritable, RowChangeWritable, Object, Object> {
    static final Queue<String> seen = new ConcurrentLinkedQueue<>();
    static volatile CountDownLatch first;
    static volatile CountDownLatch proceed;

    static void reset() {
      seen.clear();
      first = new CountDownLatch(1);
      proceed = new CountDownLatch(1);
    }

    @Override
    protected void map(ImmutableBytesWritable key, RowChangeWritable value, Context context)
        throws InterruptedException {
      assertEquals(value.get().keyAsString(), Bytes.toString(key.copyBytes()));
      seen.add(line(value.get()));
      if (first.getCount() > 0) {
        first.countDown();
        if (!proceed.await(2, TimeUnit.MINUTES)) {
          throw new IllegalStateException("the test never let the mapper go on");
        }
      }
    }
  }

  private static void put(SnapshotWriter w, int i, String value) {
    byte[] key = Bytes.toBytes(String.format("k%03d", i));
    w.put(key, "d", "v", Bytes.toBytes(value));
    if (i % 3 == 0) {
      w.put(key, "e", "n", Bytes.toBytes(i));
    }
  }

  private static String line(RowChange c) {
    return c.kind() + " " + c.keyAsString() + " " + c.before().map(SnapshotDiffJobIT::value).orElse("-") + " -> "
        + c.after().map(SnapshotDiffJobIT::value).orElse("-");
  }

  private static String value(SnapshotRow r) {
    return Bytes.toString(r.value("d", "v"));
  }

  /** A side's user-key range, as "[start, stop)" (empty where the side's range begins or ends). */
  private static String userRange(DiffSplit s, boolean before) {
    io.snapds.dataset.read.ReadSplit r = before ? s.before() : s.after();
    byte[] prefix = r.keys().prefix();
    return "[" + user(r.startRow(), prefix) + ", " + user(r.stopRow(), prefix) + ")";
  }

  private static String user(byte[] row, byte[] prefix) {
    return Bytes.startsWith(row, prefix) ? Bytes.toString(row, prefix.length, row.length - prefix.length) : "";
  }
}
