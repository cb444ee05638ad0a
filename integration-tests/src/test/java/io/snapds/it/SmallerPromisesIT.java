package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.testing.FaultyTxClient;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.SnapshotWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 14 (the parts about timeouts, durations and lock names): each bad value gets a
 * clear error naming it before anything is stored, and a metadata transaction that timed out is
 * known not to have committed. Issue #12 item 4: a row of any width writes in a small-heap client.
 */
@ExtendWith(MiniClusterExtension.class)
class SmallerPromisesIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aMetadataTransactionThatTimedOutIsRetriedNotReportedUnknown() {
    SnapshotDataset created = cluster.datasets().create(MiniCluster.uniqueDataset("timedout"),
        DatasetProperties.builder().build());
    SnapshotInfo s = writeAndCommit(created.newSnapshot().begin(), "s", 2);
    FaultyTxClient faulty = new FaultyTxClient(cluster.txClient());
    SnapshotDataset ds = SnapshotDatasets.using(cluster.connection(), faulty).open(created.id());
    faulty.timeOutCommits(1); // Tephra refuses the commit: the transaction timed out
    SnapshotInfo tagged = ds.manageTags(s.id()).tag("gold").commit();
    assertEquals(Set.of("gold"), tagged.tags());
    assertEquals(Set.of("gold"), created.snapshot(s.id()).tags(), "stored once, by the retry");
    assertEquals(s.id(), created.readTag("gold").snapshotId());
  }

  @Test
  void aMaxBuildTimeAboveTheTransactionServiceLimitIsRefusedAtCreate() {
    DatasetId id = MiniCluster.uniqueDataset("buildtime");
    Duration eightDays = Duration.ofDays(8); // the test manager's data.tx.max.timeout is one week
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> cluster.datasets().create(id, DatasetProperties.builder().maxBuildTime(eightDays).build()));
    assertTrue(e.getMessage().contains("PT192H") && e.getMessage().contains("604800"),
        "names the value and the limit: " + e.getMessage());
    assertFalse(cluster.datasets().exists(id), "nothing was created");
  }

  @Test
  void hugeDurationsAreRefusedNamingTheValue() {
    Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
    IllegalArgumentException lease = assertThrows(IllegalArgumentException.class,
        () -> LockSettings.builder().leaseDuration(huge).build());
    assertTrue(lease.getMessage().startsWith("lease duration must be at most") && lease.getMessage().contains(huge.toString()),
        lease.getMessage());
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("huge"), DatasetProperties.builder().build());
    SnapshotInfo s = writeAndCommit(ds.newSnapshot().begin(), "s", 1);
    IllegalArgumentException pin = assertThrows(IllegalArgumentException.class, () -> ds.pin(s.id(), "job", huge));
    assertTrue(pin.getMessage().contains("pin time-to-live") && pin.getMessage().contains(huge.toString()),
        pin.getMessage());
  }

  @Test
  void aSourceKeyWithNulIsRefusedSoLocksCannotShareWaiterRows() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("nul"), DatasetProperties.builder().build());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ds.newSnapshot().sourceKey("day\u0000x"));
    assertTrue(e.getMessage().contains("NUL") && e.getMessage().contains("day\\0x"), e.getMessage());
    assertEquals(0, ds.snapshots().size(), "nothing was begun");
  }

  /**
   * Issue #12 item 4: a 300,000-cell row (240 MB of values) written by a client with a 256 MB
   * heap arrives whole. The writer sends it as several Puts of the same row key, each a fraction
   * of its write buffer; one Put holding the whole row does not fit in that heap.
   */
  @Test
  void aRowWiderThanTheClientHeapIsWrittenWhole(@TempDir Path dir) throws Exception {
    int cells = 300_000;
    int valueBytes = 800;
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("wide"),
        DatasetProperties.builder().build());
    SnapshotInfo published;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      Path log = dir.resolve("child.log");
      Process child = ChildJvm.of("256m", WideRowChild.class, ds.id().toString(), w.snapshotId().toString(),
          Integer.toString(cells), Integer.toString(valueBytes), Long.toString(4L << 20),
          Files.createDirectory(dir.resolve("tx")).toString())
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      assertTrue(child.waitFor(10, TimeUnit.MINUTES), "the child ended");
      String output = Files.readString(log);
      assertEquals(0, child.exitValue(), "the child wrote the row; its output: "
          + output.substring(Math.max(0, output.length() - 4000)));
      assertTrue(output.contains("WROTE cells=" + cells), output);
      w.countStoredRows(); // the child wrote the row
      published = w.commit();
    }
    assertEquals(1, published.rowCount(), "one row, counted once though its cells came in many Results");
    CRC32 expected = new CRC32();
    for (int i = 0; i < cells; i++) {
      WideRowChild.update(expected, WideRowChild.qualifier(i), WideRowChild.value(i, valueBytes));
    }
    // read back in batches: one Result of 240 MB is more than the region server hands out at once
    int read = 0;
    CRC32 actual = new CRC32();
    try (Table table = cluster.connection().getTable(ds.id().dataTable());
        ResultScanner scanner = table.getScanner(new Scan().withStartRow(published.keys().start())
            .withStopRow(published.keys().stop()).setBatch(10_000).setMaxResultSize(16L << 20))) {
      for (Result part : scanner) {
        for (Cell c : part.rawCells()) {
          assertArrayEquals(published.keys().rowKey(WideRowChild.KEY), CellUtil.cloneRow(c), "one row");
          WideRowChild.update(actual, CellUtil.cloneQualifier(c), CellUtil.cloneValue(c));
          read++;
        }
      }
    }
    assertEquals(cells, read, "every cell of the row was read back");
    assertEquals(expected.getValue(), actual.getValue(), "the values read are the ones written, in order");
  }

  /** Region start keys of the data table inside {@code snapshot}'s key range (its first excluded). */
  private static List<String> boundariesInside(MiniCluster cluster, SnapshotDataset ds, SnapshotKeys snapshot)
      throws Exception {
    List<String> out = new ArrayList<>();
    try (org.apache.hadoop.hbase.client.RegionLocator locator =
        cluster.connection().getRegionLocator(ds.id().dataTable())) {
      for (byte[] start : locator.getStartKeys()) {
        if (org.apache.hadoop.hbase.util.Bytes.compareTo(start, snapshot.start()) > 0
            && org.apache.hadoop.hbase.util.Bytes.compareTo(start, snapshot.stop()) < 0) {
          out.add(org.apache.hadoop.hbase.util.Bytes.toString(snapshot.userKey(start)));
        }
      }
    }
    return out;
  }

  /**
   * Issue #12 item 1: a new snapshot's range is split, before its first row, at the user keys
   * where its parent's regions begin, so the build writes into as many regions as its parent had
   * (not all into the table's last one). Before: the new snapshot's range was one region.
   */
  @Test
  void aNewSnapshotInheritsItsParentsRegionBoundariesBeforeItsFirstRow() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("presplit"), DatasetProperties.defaults());
    // the parent's range split in two (before its rows: daughters of a region with files hold
    // references to them, and HBase splits them again only after a compaction)
    SnapshotWriter w1 = ds.newSnapshot().begin();
    Fixtures.split(cluster, ds, w1.snapshotKeys().rowKey(Fixtures.key(150)));
    SnapshotInfo s1 = writeAndCommit(w1, "s1", 300);
    assertEquals(List.of("k000150"), boundariesInside(cluster, ds, s1.keys()));

    SnapshotWriter w = ds.newSnapshot().begin();
    SnapshotKeys s2 = w.snapshotKeys();
    assertEquals(List.of("k000150"), boundariesInside(cluster, ds, s2),
        "the new snapshot's range is split where its parent's was, before its first row");
    SnapshotInfo published = Fixtures.writeAndCommit(w, "s2", 300);
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(published), "every row written and read back");

    // off: the next snapshot's range stays one region
    SnapshotDataset off = cluster.datasets().create(MiniCluster.uniqueDataset("nosplit"),
        DatasetProperties.builder().presplitMaxRegions(0).build());
    SnapshotWriter o1 = off.newSnapshot().begin();
    Fixtures.split(cluster, off, o1.snapshotKeys().rowKey(Fixtures.key(150)));
    writeAndCommit(o1, "o1", 300);
    SnapshotWriter ow = off.newSnapshot().begin();
    assertEquals(List.of(), boundariesInside(cluster, off, ow.snapshotKeys()));
    ow.abort();
  }
}
