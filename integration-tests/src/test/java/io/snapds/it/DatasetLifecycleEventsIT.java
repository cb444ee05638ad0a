package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static io.snapds.it.OldLayoutBuilder.millis;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetEvent.Type;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.EventSink;
import io.snapds.dataset.Reconciler;
import io.snapds.dataset.Reconciler.ReconcileResult;
import io.snapds.dataset.Relay;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.admin.CompositeDatasetAdmin;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Dataset lifecycle events (#13) through a real relay: create, upgrade and drop each write exactly
 * their event in sequence order, no change commits after DROPPED, the tables outlive the dataset
 * until its relays delivered DROPPED, and a create or a drop cut off half-way is finished by one
 * reconciler pass.
 */
@ExtendWith(MiniClusterExtension.class)
class DatasetLifecycleEventsIT {
  private static final Duration STALE = Duration.ofHours(1);
  private final MiniCluster cluster = MiniCluster.get();

  /** A destination that keeps what it was handed, in arrival order. */
  private static final class Collected implements EventSink {
    final List<DatasetEvent> events = new ArrayList<>();

    @Override
    public void deliver(List<DatasetEvent> batch) {
      events.addAll(batch);
    }

    List<Type> types() {
      return events.stream().map(DatasetEvent::type).toList();
    }

    List<Long> sequences() {
      return events.stream().map(DatasetEvent::sequence).toList();
    }
  }

  @Test
  void createPublishAndDropEachWriteTheirEventAndTheTablesGoOnlyAfterTheRelayDeliveredDropped() {
    DatasetId id = MiniCluster.uniqueDataset("lifecycle");
    SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
    Collected sink = new Collected();
    Relay.of(ds, "collect", sink).run();
    assertEquals(List.of(Type.CREATED), sink.types());
    assertEquals(Optional.empty(), sink.events.get(0).snapshot(), "CREATED is about no snapshot");
    SnapshotInfo published = writeAndCommit(ds.newSnapshot().begin(), "one", 3);
    SnapshotWriter late = ds.newSnapshot().owner("late-writer").begin(); // in flight across the drop
    late.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("x"));
    Relay.of(ds, "collect", sink).run();

    CompositeDatasetAdmin admin = cluster.datasets().admin(id);
    assertFalse(admin.drop(), "the relay has not delivered DROPPED yet: the tables stay");
    assertTrue(admin.exists());
    assertEquals(Map.of("collect", 2L), admin.finishDrop(), "the position short of DROPPED");
    // no change commits after DROPPED: the writer in flight is refused, typed
    DatasetNotFoundException refused = assertThrows(DatasetNotFoundException.class, late::commit);
    assertTrue(refused.getMessage().contains("being dropped (event 3)"), refused.getMessage());
    assertEquals(3, ds.status().lastEventSequence());

    ReconcileResult pass = Reconciler.runOnce(ds, "reconciler-1", STALE, Map.of("collect", sink));
    assertEquals(List.of(Reconciler.DROPPED_TABLES), pass.repairs(), pass.toString());
    assertEquals(List.of(), pass.remaining());
    assertEquals(List.of(Type.CREATED, Type.PUBLISHED, Type.DROPPED), sink.types());
    assertEquals(List.of(1L, 2L, 3L), sink.sequences());
    assertEquals(Optional.of(published.id()), sink.events.get(2).snapshot(), "DROPPED names the current snapshot");
    assertFalse(admin.exists(), "the tables are gone once DROPPED was delivered");
    assertThrows(DatasetNotFoundException.class, () -> cluster.datasets().open(id));
    assertTrue(admin.drop(), "dropping what is gone is a no-op");
  }

  @Test
  void aDropCutOffBetweenItsEventAndTheDeletesIsFinishedByOnePass() {
    DatasetId id = MiniCluster.uniqueDataset("halfdrop");
    SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
    writeAndCommit(ds.newSnapshot().begin(), "one", 2);
    CompositeDatasetAdmin admin = cluster.datasets().admin(id);
    assertEquals(3, admin.beginDrop()); // CREATED, PUBLISHED, DROPPED; then the process "dies"
    assertEquals(3, admin.beginDrop(), "again: the same DROPPED, no second event");
    assertTrue(admin.exists());
    assertEquals(List.of(Type.CREATED, Type.PUBLISHED, Type.DROPPED),
        ds.events(0, 10).stream().map(DatasetEvent::type).toList());

    ReconcileResult pass = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertEquals(List.of(Reconciler.DROPPED_TABLES), pass.repairs(), pass.toString());
    assertTrue(pass.repaired());
    assertFalse(admin.exists());
    // the next pass finds no dataset to work on
    assertThrows(DatasetNotFoundException.class, () -> cluster.datasets().open(id));
    assertFalse(cluster.datasets().list().contains(id));

    // without any relay or consumer position, drop() deletes the tables at once
    DatasetId other = MiniCluster.uniqueDataset("dropnow");
    cluster.datasets().create(other, DatasetProperties.defaults()).close();
    assertTrue(cluster.datasets().admin(other).drop());
    assertFalse(cluster.datasets().exists(other));
  }

  @Test
  void aCreateCutOffBeforeItsFirstCommitIsAnnouncedByOnePass() {
    DatasetId id = MiniCluster.uniqueDataset("halfcreate");
    // an admin without a transaction client stops where a crash after the tables would
    new CompositeDatasetAdmin(id, cluster.connection()).create(DatasetProperties.defaults());
    SnapshotDataset ds = cluster.datasets().open(id);
    assertEquals(List.of(), ds.events(0, 10));

    ReconcileResult first = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertEquals(List.of(Reconciler.WROTE_CREATED), first.repairs(), first.toString());
    assertEquals(List.of(Type.CREATED), ds.events(0, 10).stream().map(DatasetEvent::type).toList());
    ReconcileResult second = Reconciler.runOnce(ds, "reconciler-1", STALE);
    assertFalse(second.repaired(), "a second pass finds nothing to do: " + second);
    assertEquals(1, ds.status().lastEventSequence());
    cluster.datasets().admin(id).drop();
  }

  @Test
  void anUpgradeWritesUpgradedInItsTransactionAndOnlyOnce() throws Exception {
    SnapshotId s1 = SnapshotId.of(2001);
    DatasetId id = new OldLayoutBuilder(cluster, MiniCluster.uniqueDataset("upgradeevent"))
        .snapshot(new OldLayoutBuilder.Old(s1, "COMMITTED", millis("2026-11-03T00:00:00Z"), 0, "run-1", null, null, 2,
            "one"))
        .history(millis("2026-11-03T00:00:00Z"), s1, "publish")
        .commit();
    CompositeDatasetAdmin admin = cluster.datasets().admin(id);
    assertEquals(1, admin.upgrade());
    assertEquals(io.snapds.dataset.SnapshotDatasets.formatVersion(), admin.upgrade(),
        "upgrading again changes nothing");
    try (SnapshotDataset ds = cluster.datasets().open(id)) {
      Collected sink = new Collected();
      Relay.of(ds, "collect", sink).run();
      // a dataset of format 1 predates the outbox: its first event is the upgrade's, and only one
      assertEquals(List.of(Type.UPGRADED), sink.types(), sink.events.toString());
      assertEquals(List.of(1L), sink.sequences());
      DatasetEvent last = sink.events.get(0);
      assertEquals(Optional.of(s1), last.snapshot(), "with the current snapshot as context");
      assertEquals(Optional.of("run-1"), last.runId());
    }
    admin.drop();
  }
}
