package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.DatasetStatus;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code SnapshotDataset.status()}: what an operator (and {@code snapds status}) is told about
 * builds, locks and the cleanup backlog, against the stored state, before and after the repair
 * (a cleanup) that the status asks for.
 */
@ExtendWith(MiniClusterExtension.class)
class StatusSaysWhatNeedsRepairIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aDeadWriterAPinnedSnapshotAndACleanableOneAreEachReportedUntilCleanupRepairsThem() {
    cluster.endLeftoverTransactions(); // earlier classes' open writers would count as readers
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("status"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    DatasetStatus empty = ds.status();
    assertTrue(empty.current().isEmpty());
    assertEquals(List.of(), empty.attention(Duration.ofHours(1)), "a new dataset needs nothing");

    SnapshotInfo first = writeAndCommit(ds.newSnapshot().begin(), "first", 3);
    ReaderPin pin = ds.pin(first.id(), "report-job", Duration.ofMinutes(10));
    SnapshotInfo second = writeAndCommit(ds.newSnapshot().begin(), "second", 2);
    SnapshotInfo third = writeAndCommit(ds.newSnapshot().begin(), "third", 2); // second expires, unpinned
    SnapshotWriter alive = ds.newSnapshot().owner("alive").begin();
    SnapshotWriter dead = ds.newSnapshot().sourceKey("2026-11").owner("dead").begin();
    dead.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("x"));
    dead.flush();
    cluster.txClient().invalidate(dead.snapshotId().value()); // its process is gone

    DatasetStatus status = ds.status();
    assertEquals(third.id(), status.current().orElseThrow().id());
    Map<Object, DatasetStatus.Build> builds = status.building().stream()
        .collect(Collectors.toMap(b -> b.snapshot().id(), b -> b));
    assertEquals(2, builds.size());
    assertTrue(builds.get(alive.snapshotId()).writerAlive(), "the live writer holds its lease and transaction");
    assertFalse(builds.get(dead.snapshotId()).transactionOpen(), "the dead writer's transaction ended");
    assertEquals("source/2026-11", builds.get(dead.snapshotId()).lockName());
    Map<Object, DatasetStatus.Backlog> backlog = status.awaitingCleanup().stream()
        .collect(Collectors.toMap(b -> b.snapshot().id(), b -> b));
    assertEquals(DatasetStatus.Wait.PINS, backlog.get(first.id()).waitsFor());
    assertEquals(1, backlog.get(first.id()).livePins());
    assertEquals(DatasetStatus.Wait.NOTHING, backlog.get(second.id()).waitsFor(), "nothing holds the second");
    List<String> attention = status.attention(Duration.ZERO);
    assertTrue(attention.stream().anyMatch(a -> a.contains(dead.snapshotId().toString()) && a.contains("ended")),
        attention.toString());
    assertTrue(attention.stream().anyMatch(a -> a.contains(second.id() + " (EXPIRED) can be cleaned")),
        attention.toString());
    assertTrue(attention.stream().anyMatch(a -> a.contains(first.id() + "") && a.contains("1 reader pin")),
        attention.toString());
    assertFalse(attention.stream().anyMatch(a -> a.contains(alive.snapshotId().toString())), attention.toString());

    ds.cleanup();
    pin.close();
    DatasetStatus repaired = ds.status();
    assertEquals(SnapshotState.ABORTED, ds.snapshot(dead.snapshotId()).state());
    assertEquals(List.of(alive.snapshotId()), repaired.building().stream().map(b -> b.snapshot().id()).toList());
    assertFalse(repaired.awaitingCleanup().stream().anyMatch(b -> b.snapshot().id().equals(second.id())),
        "the second was cleaned");
    assertEquals(0, cluster.rawRows(ds.id(), second.id()));
    alive.close();
    dead.close();
    ds.cleanup();
    ds.cleanup(); // the closes aborted with fences: cleanup deletes (a second run finds nothing to do)
    assertEquals(List.of(), ds.status().attention(Duration.ZERO), "after the repairs nothing is left to do");
  }
}
