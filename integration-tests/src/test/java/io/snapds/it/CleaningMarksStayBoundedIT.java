package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.client.Get;
import java.time.Duration;
import io.snapds.dataset.lock.LockTimeoutException;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.SnapshotWriter;
import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Cleanup marks a snapshot as being cleaned (a {@code C} row of the lock table) before it deletes
 * its rows, so a reader that outlived its protection fails instead of reading a short result. The
 * marks must not pile up with history: once a cleaned snapshot's record passes the history horizon
 * its mark goes too, so the lock table holds about {@code history.retain.last} of them however
 * many snapshots were ever cleaned. (Before, every cleaned snapshot left its mark for good: 30
 * marks after 30 cleaned snapshots.)
 */
@ExtendWith(MiniClusterExtension.class)
class CleaningMarksStayBoundedIT {
  private static final int HORIZON = 3;
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void marksOfSnapshotsPastTheHorizonAreDropped() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("marks"), DatasetProperties.builder()
        .retention(RetentionPolicy.retainLast(1)).historyHorizon(HORIZON, null).build());
    List<SnapshotId> published = new ArrayList<>();
    int maxMarks = 0;
    for (int i = 0; i < 30; i++) {
      SnapshotInfo s = writeAndCommit(ds.newSnapshot().begin(), "s" + i, 2);
      published.add(s.id());
      ds.cleanup();
      maxMarks = Math.max(maxMarks, cleaningMarks(ds));
    }
    assertTrue(maxMarks <= HORIZON + 2, "cleaning marks stay near the horizon (" + HORIZON + "), saw " + maxMarks);
    assertTrue(maxMarks >= 1, "cleanup did mark what it cleaned");

    // what the marks protect still holds for a snapshot within the horizon: it reads as cleaned
    SnapshotId recent = published.get(published.size() - 2);
    assertTrue(ds.isCleaned(recent), "a cleaned snapshot within the horizon is known as cleaned");
    // and one past the horizon is known as gone through the metadata, not the mark
    SnapshotId old = published.get(0);
    assertTrue(ds.isCleaned(old), "a snapshot past the horizon counts as cleaned");
    assertThrows(SnapshotNotAvailableException.class, () -> ds.readSnapshot(old));
    assertEquals(2, Fixtures.observe(ds.readCurrent()).rows());
  }

  /**
   * Issue #11 item 3: a pipeline whose source key changes every run (a date) leaves one lock row
   * per key in the lock table. Once the key's last record passes the horizon (its fence row goes
   * then), cleanup drops the lock row too, if nobody holds or awaits it; a key used again later
   * starts afresh and is fenced as before. (Before: one row per key ever used, for ever.)
   */
  @Test
  void lockRowsOfSourceKeysNoLongerInUseAreDropped() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("keys"), DatasetProperties.builder()
        .retention(RetentionPolicy.retainLast(1)).historyHorizon(HORIZON, null)
        .lockSettings(LockSettings.builder().acquireTimeout(Duration.ZERO).retryAttempts(1).build()).build());
    int maxLocks = 0;
    for (int day = 1; day <= 20; day++) {
      writeAndCommit(ds.newSnapshot().sourceKey("day-" + day).begin(), "d" + day, 2);
      ds.cleanup();
      maxLocks = Math.max(maxLocks, rows(ds, "Lsource/"));
    }
    assertTrue(maxLocks <= HORIZON + 3, "lock rows stay near the horizon (" + HORIZON + "), saw " + maxLocks);
    assertFalse(lockExists(ds, "source/day-1"), "the first key's lock row went with its last record");
    assertTrue(lockExists(ds, "source/day-20"), "the newest key keeps its lock row");

    // a key used again starts afresh, and one writer at a time still holds it
    SnapshotWriter again = ds.newSnapshot().sourceKey("day-1").begin();
    assertThrows(LockTimeoutException.class, () -> ds.newSnapshot().sourceKey("day-1").begin());
    SnapshotInfo published = writeAndCommit(again, "again", 3);
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(3, Fixtures.observe(ds.readCurrent()).rows());
  }

  private boolean lockExists(SnapshotDataset ds, String lockName) throws Exception {
    try (Table lock = cluster.connection().getTable(ds.id().lockTable())) {
      return !lock.get(new Get(Bytes.add(new byte[] {'L'}, Bytes.toBytes(lockName)))).isEmpty();
    }
  }

  private int rows(SnapshotDataset ds, String prefix) throws Exception {
    int n = 0;
    try (Table lock = cluster.connection().getTable(ds.id().lockTable());
        ResultScanner rs = lock.getScanner(new Scan().setRowPrefixFilter(Bytes.toBytes(prefix)))) {
      for (Result r : rs) {
        n++;
      }
    }
    return n;
  }

  private int cleaningMarks(SnapshotDataset ds) throws Exception {
    int n = 0;
    int legacy = 0;
    try (Table lock = cluster.connection().getTable(ds.id().lockTable());
        ResultScanner rs = lock.getScanner(new Scan().setRowPrefixFilter(new byte[] {'C'}))) {
      for (Result r : rs) {
        if (r.getRow().length == 1) { // the cleaning row: a column per mark, and the watermark "below"
          n = Math.max(n, (int) r.getFamilyMap(Bytes.toBytes("l")).keySet().stream().filter(q -> q.length == 8).count());
        } else {
          legacy++; // the same marks as rows C + id, for readers of earlier versions
        }
      }
    }
    return Math.max(n, legacy);
  }
}
