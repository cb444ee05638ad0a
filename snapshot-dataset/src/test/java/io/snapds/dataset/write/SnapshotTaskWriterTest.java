package io.snapds.dataset.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The distributed write on its own: the driver begins and hands out a handle, tasks write through
 * {@link SnapshotTaskWriter} on it, the driver publishes, summing the attempts' records when they
 * say what the snapshot stores and counting the stored rows otherwise. The published counts are
 * the rows a reader gets, not the sum of what tasks sent; an attempt that outlives the job sends
 * nothing into the published snapshot.
 */
@ExtendWith(MiniClusterExtension.class)
class SnapshotTaskWriterTest {
  private final MiniCluster cluster = MiniCluster.get();

  private static SnapshotRow row(String key, String value) {
    java.util.NavigableMap<byte[], byte[]> cells = new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
    cells.put(Bytes.toBytes("v"), Bytes.toBytes(value));
    java.util.NavigableMap<byte[], java.util.NavigableMap<byte[], byte[]>> families =
        new java.util.TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(Bytes.toBytes("d"), cells);
    return new SnapshotRow(Bytes.toBytes(key), families);
  }

  private static Map<String, String> read(SnapshotDataset ds) {
    Map<String, String> rows = new TreeMap<>();
    try (RowScanner scanner = ds.readCurrent().scan(RowScan.all())) {
      for (SnapshotRow r : scanner) {
        rows.put(Bytes.toString(r.key()), Bytes.toString(r.value("d", "v")));
      }
    }
    return rows;
  }

  @Test
  void tasksWriteThroughTheHandleAndThePublishCountsWhatAReaderGets() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("taskwriter"), DatasetProperties.builder().build());
    SnapshotWriter driver = ds.newSnapshot().begin();
    SnapshotHandle handle = driver.handle().orElseThrow();

    SnapshotTaskWriter first = SnapshotTaskWriter.open(ds, handle, 1); // a one-byte buffer: every row is a batch
    first.put(row("a", "1"));
    first.put(row("b", "1"));
    first.put(row("c", "1"));
    first.close();
    SnapshotTaskWriter second = SnapshotTaskWriter.open(ds, handle, 1 << 20); // a retried attempt, overlapping
    second.put(row("c", "2"));
    second.put(row("d", "2"));
    SnapshotTaskWriter failed = SnapshotTaskWriter.open(ds, handle, 1 << 20);
    failed.put(row("z", "lost"));
    failed.discard(); // a failed attempt: its batch is never sent
    second.close();
    assertEquals(3, first.rowsSent());
    assertEquals(2, second.rowsSent());
    assertEquals(0, failed.rowsSent());

    SnapshotInfo published = driver.countStoredRows().commit();
    Map<String, String> got = read(ds);
    // two tasks wrote "c": which one a reader gets is not defined, but it gets one row for it
    assertEquals(java.util.Set.of("a", "b", "c", "d"), got.keySet());
    assertTrue(java.util.Set.of("1", "2").contains(got.get("c")), got.toString());
    assertEquals(got.size(), published.rowCount(), "the published count is the rows a reader gets, not the 5 sent");
  }

  /** How the publishes of {@code ds} took their counts: summed from the attempts' records, or scanned. */
  private static double counted(io.micrometer.core.instrument.MeterRegistry meters, String by) {
    return meters.find("snapds.publish.counted").tag("by", by).counters().stream()
        .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
  }

  /** The registry the datasets of the test under way report to (a new one per test). */
  private final io.micrometer.core.instrument.simple.SimpleMeterRegistry meters =
      new io.micrometer.core.instrument.simple.SimpleMeterRegistry();

  /** A new dataset, opened to report its metrics to {@link #meters}. */
  private SnapshotDataset metered(String name) {
    io.snapds.dataset.DatasetId id = MiniCluster.uniqueDataset(name);
    cluster.datasets().create(id, DatasetProperties.builder().build());
    return cluster.datasets().withMetrics(meters).open(id);
  }

  /** A driver that began a snapshot of {@code ds} and hands its tasks {@code handle}. */
  private record Job(SnapshotDataset ds, SnapshotWriter driver, SnapshotHandle handle) {
    static Job begin(SnapshotDataset ds) {
      SnapshotWriter driver = ds.newSnapshot().begin();
      return new Job(ds, driver, driver.handle().orElseThrow());
    }
  }

  /** The attempt records left in the lock table (rows A + snapshot id + attempt). */
  private int attemptRecords(SnapshotDataset ds, io.snapds.dataset.SnapshotId snapshot) throws Exception {
    byte[] prefix = Bytes.add(new byte[] {'A'}, snapshot.toBytes());
    int n = 0;
    try (var table = cluster.connection().getTable(ds.id().lockTable());
        var rs = table.getScanner(new org.apache.hadoop.hbase.client.Scan().setRowPrefixFilter(prefix))) {
      for (var r : rs) {
        n++;
      }
    }
    return n;
  }

  @Test
  void tasksWhoseKeyRangesDoNotMeetArePublishedWithTheSumOfTheirRecords() throws Exception {
    Job job = Job.begin(metered("tasksum"));
    SnapshotDataset ds = job.ds();
    SnapshotWriter driver = job.driver();
    SnapshotHandle handle = job.handle();
    SnapshotTaskWriter low = SnapshotTaskWriter.open(ds, handle, 1);
    low.put(row("a", "1"));
    low.put(row("b", "1"));
    low.close();
    SnapshotTaskWriter high = SnapshotTaskWriter.open(ds, handle, 1 << 20);
    high.put(row("m", "2"));
    high.put(row("n", "2"));
    high.put(row("o", "2"));
    high.close();
    SnapshotTaskWriter idle = SnapshotTaskWriter.open(ds, handle, 1 << 20); // sent nothing: no record
    idle.close();
    assertEquals(2, attemptRecords(ds, driver.snapshotId()), "one record per attempt that sent rows");

    SnapshotInfo published = driver.countStoredRows().commit();
    assertEquals(Map.of("a", "1", "b", "1", "m", "2", "n", "2", "o", "2"), read(ds));
    assertEquals(5, published.rowCount());
    assertEquals(1.0, counted(meters, "attempts"), "the counts came from the attempts' records");
    assertEquals(0.0, counted(meters, "scan"));
    assertEquals(0, attemptRecords(ds, published.id()), "the publish removed the records it read");
  }

  @Test
  void anAttemptThatDiedWhileSendingMakesThePublishCountTheStoredRows() throws Exception {
    Job job = Job.begin(metered("taskdied"));
    SnapshotDataset ds = job.ds();
    SnapshotWriter driver = job.driver();
    SnapshotHandle handle = job.handle();
    SnapshotTaskWriter died = SnapshotTaskWriter.open(ds, handle, 1); // sends each row, then its process dies
    died.put(row("x", "lost"));
    died.put(row("y", "lost"));
    SnapshotTaskWriter retry = SnapshotTaskWriter.open(ds, handle, 1 << 20); // its task's next attempt
    retry.put(row("a", "1"));
    retry.close();

    SnapshotInfo published = driver.countStoredRows().commit();
    // what the dead attempt sent is stored, and a reader gets it: the count must say so
    assertEquals(Map.of("a", "1", "x", "lost", "y", "lost"), read(ds));
    assertEquals(3, published.rowCount(), "the sum of the records (1) would miss the dead attempt's rows");
    assertEquals(1.0, counted(meters, "scan"));
    assertEquals(0.0, counted(meters, "attempts"));
  }

  @Test
  void rowsTheDriverWroteBeforeHandingTheSnapshotOverAreCounted() {
    SnapshotDataset ds = metered("taskdetach");
    SnapshotWriter driver = ds.newSnapshot().begin();
    driver.put(row("a", "driver")); // the driver's own row: no attempt of a task
    SnapshotHandle handle = driver.detach();
    SnapshotWriter resumed = cluster.datasets().withMetrics(meters).open(ds.id()).resume(handle); // another process
    SnapshotTaskWriter task = SnapshotTaskWriter.open(ds, handle, 1 << 20);
    task.put(row("m", "task"));
    task.close();

    SnapshotInfo published = resumed.commit();
    assertEquals(Map.of("a", "driver", "m", "task"), read(ds));
    assertEquals(2, published.rowCount(), "the task's record alone says 1");
    assertEquals(1.0, counted(meters, "scan"));
    assertEquals(0.0, counted(meters, "attempts"));
  }

  @Test
  void anAttemptThatOutlivesItsJobSendsNothingIntoThePublishedSnapshot() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("outlives"), DatasetProperties.builder().build());
    SnapshotWriter driver = ds.newSnapshot().begin();
    SnapshotHandle handle = driver.handle().orElseThrow();
    SnapshotTaskWriter attempt = SnapshotTaskWriter.open(ds, handle, 1 << 20);
    attempt.put(row("a", "1"));
    attempt.flush();
    attempt.put(row("late", "x"));
    SnapshotInfo published = driver.countStoredRows().commit();

    SnapshotNotAvailableException e = assertThrows(SnapshotNotAvailableException.class, attempt::close);
    assertTrue(e.getMessage().contains(published.id().toString()), e.getMessage());
    assertEquals(0, attemptRecords(ds, published.id()), "the refused attempt removed the record it wrote first");
    assertThrows(SnapshotNotAvailableException.class, attempt::close, "a second close is refused the same way");
    assertEquals(0, attemptRecords(ds, published.id()), "and leaves no record either");
    assertEquals(Map.of("a", "1"), read(ds));
    assertEquals(1, published.rowCount());
    assertThrows(SnapshotNotAvailableException.class, () -> SnapshotTaskWriter.open(ds, handle, 1 << 20),
        "a task that starts after the publish cannot open");
    IllegalArgumentException buffer = assertThrows(IllegalArgumentException.class,
        () -> SnapshotTaskWriter.open(ds, handle, 0));
    assertEquals("write buffer must be > 0 bytes, got 0", buffer.getMessage());
  }

  @Test
  void rowsGivenAsCellsTravelInTheSameBatchesAndChecks() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("taskcells"), DatasetProperties.builder().build());
    SnapshotWriter driver = ds.newSnapshot().begin();
    SnapshotHandle handle = driver.handle().orElseThrow();
    byte[][] v = {Bytes.toBytes("v")};
    SnapshotTaskWriter task = SnapshotTaskWriter.open(ds, handle, 40); // about one row a batch
    task.put(Bytes.toBytes("a"), "d", v, new byte[][] {Bytes.toBytes("1")});
    task.put(row("b", "2")); // both kinds of row in one batch, in order
    task.put(Bytes.toBytes("c"), "d", v, new byte[][] {Bytes.toBytes("3")});
    IllegalArgumentException lengths = assertThrows(IllegalArgumentException.class,
        () -> task.put(Bytes.toBytes("x"), "d", v, new byte[0][]));
    assertEquals("1 qualifiers for 0 values", lengths.getMessage());
    IllegalArgumentException noCell = assertThrows(IllegalArgumentException.class,
        () -> task.put(Bytes.toBytes("x"), "d", new byte[0][], new byte[0][]));
    assertTrue(noCell.getMessage().contains("row x has no cell"), noCell.getMessage());
    IllegalArgumentException nullCell = assertThrows(IllegalArgumentException.class,
        () -> task.put(Bytes.toBytes("x"), "d", v, new byte[][] {null}));
    assertTrue(nullCell.getMessage().contains("row x"), nullCell.getMessage());
    task.close();
    assertEquals(3, task.rowsSent());

    SnapshotTaskWriter late = SnapshotTaskWriter.open(ds, handle, 1 << 20);
    late.put(Bytes.toBytes("late"), "d", v, new byte[][] {Bytes.toBytes("x")});
    SnapshotInfo published = driver.countStoredRows().commit();
    assertThrows(SnapshotNotAvailableException.class, late::close, "the batch is checked as any other");
    assertEquals(Map.of("a", "1", "b", "2", "c", "3"), read(ds));
    assertEquals(3, published.rowCount());
  }
}
