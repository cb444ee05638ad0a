package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #14, the shorter key prefix (metadata format 3): a new snapshot's rows carry a length byte
 * and its dataset-local key number (2 bytes for the first 255 snapshots) instead of its 8-byte id.
 * The numbers are given in the begin commits, never twice, and a format-2 dataset keeps its 8-byte
 * prefixes until it is upgraded, after which it holds, reads and cleans both kinds.
 */
@ExtendWith(MiniClusterExtension.class)
class KeyNumbersIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void snapshotsAreNumberedInBeginOrderAndTheirRowsCarryTheShortPrefix() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("keyno"), DatasetProperties.defaults());
    assertEquals(SnapshotDatasets.formatVersion(), cluster.datasets().admin(ds.id()).formatVersion());
    List<SnapshotInfo> published = new ArrayList<>();
    published.add(Fixtures.writeAndCommit(ds.newSnapshot().begin(), "one", 5));
    published.add(Fixtures.writeAndCommit(ds.newSnapshot().begin(), "two", 6));
    SnapshotId aborted;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(Fixtures.key(0), "d", "v", Bytes.toBytes("gone:0"));
      aborted = w.snapshotId();
      w.abort();
    }
    published.add(Fixtures.writeAndCommit(ds.newSnapshot().begin(), "four", 7));

    assertEquals(List.of(1L, 2L, 4L), published.stream().map(SnapshotInfo::keyNumber).toList());
    assertEquals(3, ds.snapshot(aborted).keyNumber(), "an aborted build keeps its number; none is given again");
    // in the table: under [1, n] exactly each snapshot's rows, keyed by the user's key
    Map<Long, List<String>> stored = rowsByPrefix(ds.id());
    assertEquals(Set.of(1L, 2L, 3L, 4L), stored.keySet());
    for (SnapshotInfo s : published) {
      assertArrayEquals(new byte[] {1, (byte) s.keyNumber()}, s.keys().prefix());
      assertEquals(s.rowCount(), stored.get(s.keyNumber()).size());
      assertEquals(Bytes.toString(Fixtures.key(0)), stored.get(s.keyNumber()).get(0));
      assertTrue(Fixtures.observe(ds.readSnapshot(s.id())).matches(s), "snapshot " + s.id() + " reads its own rows");
    }
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(published.get(2)));
  }

  @Test
  void concurrentBeginsNeverShareANumber() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("keyrace"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(10)).build());
    int writers = 6;
    CyclicBarrier start = new CyclicBarrier(writers);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<SnapshotInfo>> results = new ArrayList<>();
    try {
      for (int i = 0; i < writers; i++) {
        String label = "w" + i;
        results.add(pool.submit(() -> {
          start.await(1, TimeUnit.MINUTES);
          // a source key each: a lock each, so the begins run at once and race on the pointer row
          return Fixtures.writeAndCommit(ds.newSnapshot().sourceKey("src-" + label).begin(), label, 3 + label.length());
        }));
      }
      Set<Long> numbers = new HashSet<>();
      for (Future<SnapshotInfo> f : results) {
        SnapshotInfo s = f.get(5, TimeUnit.MINUTES);
        assertTrue(numbers.add(s.keyNumber()), "number " + s.keyNumber() + " given twice");
        assertTrue(Fixtures.observe(ds.readSnapshot(s.id())).matches(s), "snapshot " + s.id() + " reads its own rows");
      }
      assertEquals(writers, numbers.size());
      assertTrue(numbers.stream().allMatch(n -> n >= 1 && n <= writers), "numbers " + numbers + " are 1.." + writers);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFormatTwoDatasetKeepsItsPrefixUntilUpgradedThenReadsAndCleansBothKinds() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("keyupgrade");
    cluster.datasets().create(id, DatasetProperties.builder().retention(RetentionPolicy.retainLast(2)).build()).close();
    try (Table meta = cluster.connection().getTable(id.metaTable())) {
      // what a dataset made by the library of format 2 has
      meta.put(new Put(Bytes.toBytes("p")).addColumn(Bytes.toBytes("m"), Bytes.toBytes("format.version"),
          Bytes.toBytes("2")));
    }
    SnapshotDataset before = cluster.datasets().open(id); // stays open across the upgrade
    SnapshotWriter running = before.newSnapshot().begin();
    IllegalStateException refused = assertThrows(IllegalStateException.class,
        () -> cluster.datasets().admin(id).upgrade());
    assertTrue(refused.getMessage().startsWith("dataset " + id + " has builds running (writer locks [writer] held)"),
        refused.getMessage());
    assertEquals(2, cluster.datasets().admin(id).formatVersion(), "a refused upgrade changes nothing");
    SnapshotInfo old = Fixtures.writeAndCommit(running, "old", 5);
    assertEquals(0, old.keyNumber());
    assertEquals(SnapshotKeys.legacy(old.id()), old.keys());
    assertEquals(5, cluster.rawRows(id, SnapshotKeys.legacy(old.id())), "format 2: rows under the 8-byte id");

    assertEquals(2, cluster.datasets().admin(id).upgrade());
    assertEquals(SnapshotDatasets.formatVersion(), cluster.datasets().admin(id).formatVersion());
    List<DatasetEvent> events = before.events(0, 100);
    assertEquals(DatasetEvent.Type.UPGRADED, events.get(events.size() - 1).type(), "the upgrade is an event: " + events);
    SnapshotDataset ds = cluster.datasets().open(id);
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(old), "the old snapshot reads after the upgrade");
    // the process that opened it at format 2 goes on with 8-byte ids until a number is given
    SnapshotInfo late = Fixtures.writeAndCommit(before.newSnapshot().begin(), "late", 4);
    assertEquals(0, late.keyNumber());
    assertTrue(Fixtures.observe(ds.readSnapshot(late.id())).matches(late));
    SnapshotInfo first = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "first", 6);
    assertEquals(1, first.keyNumber());
    SnapshotInfo numberedToo = Fixtures.writeAndCommit(before.newSnapshot().begin(), "numbered", 3);
    assertEquals(2, numberedToo.keyNumber(), "once numbers are given, a process that opened before gives them too");
    assertTrue(Fixtures.observe(before.readSnapshot(first.id())).matches(first), "and reads the numbered ones");
    assertEquals(6, cluster.rawRows(id, first.keys()));
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(numberedToo));

    SnapshotInfo second = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "second", 7);
    SnapshotInfo third = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "third", 8);
    assertEquals(List.of(3L, 4L), List.of(second.keyNumber(), third.keyNumber()));
    ds.cleanup(); // all but the last two expired: their rows go, of both kinds
    for (SnapshotInfo gone : List.of(old, late, first, numberedToo)) {
      assertEquals(0, cluster.rawRows(id, gone.keys()), "rows of " + gone.id() + " after cleanup");
    }
    assertEquals(7, cluster.rawRows(id, second.keys()));
    assertTrue(Fixtures.observe(ds.readSnapshot(second.id())).matches(second));
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(third));
    assertFalse(rowsByPrefix(id).containsKey(0L), "no row is left under an 8-byte prefix");
    assertEquals(SnapshotDatasets.formatVersion(), cluster.datasets().admin(id).upgrade(),
        "upgrading again changes nothing");
  }

  @Test
  void aTruncateKeepsAFormatTwoDatasetAtTwo() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("keytruncate");
    cluster.datasets().create(id, DatasetProperties.defaults()).close();
    try (Table meta = cluster.connection().getTable(id.metaTable())) {
      meta.put(new Put(Bytes.toBytes("p")).addColumn(Bytes.toBytes("m"), Bytes.toBytes("format.version"),
          Bytes.toBytes("2")));
    }
    Fixtures.writeAndCommit(cluster.datasets().open(id).newSnapshot().begin(), "gone", 3);
    cluster.datasets().admin(id).truncate();
    assertEquals(2, cluster.datasets().admin(id).formatVersion(), "a truncate is not an upgrade");
    assertEquals(0, Fixtures.writeAndCommit(cluster.datasets().open(id).newSnapshot().begin(), "new", 2).keyNumber());
  }

  /** The user keys in the data table by key number (0 for rows under an 8-byte id prefix). */
  private Map<Long, List<String>> rowsByPrefix(DatasetId id) throws Exception {
    Map<Long, List<String>> out = new TreeMap<>();
    try (Table t = cluster.connection().getTable(id.dataTable()); ResultScanner rows = t.getScanner(new Scan())) {
      for (Result r : rows) {
        byte[] row = r.getRow();
        boolean numbered = row[0] >= 1 && row[0] <= 7;
        int prefix = numbered ? 1 + row[0] : SnapshotId.BYTES;
        long n = 0;
        for (int i = 1; numbered && i < prefix; i++) {
          n = (n << 8) | (row[i] & 0xff);
        }
        out.computeIfAbsent(n, k -> new ArrayList<>()).add(Bytes.toString(row, prefix, row.length - prefix));
      }
    }
    return out;
  }
}
