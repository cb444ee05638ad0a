package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.MetadataFormatException;
import io.snapds.dataset.Reconciler;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.PublishMode;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotStateException;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.StagedBaseMovedException;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.TransactionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 39: write, audit, publish. A staged snapshot is readable by id and nowhere else until it
 * is published; a publish checks its base, publishes once however often it is retried; a discard
 * (by hand, or the reconciler's past {@code staged.max.age}) makes it unreadable and leaves the
 * current snapshot alone. Each check reads what a reader actually gets.
 */
@ExtendWith(MiniClusterExtension.class)
class StagedPublishIT {
  private final MiniCluster cluster = MiniCluster.get();

  private static SnapshotWriter write(SnapshotDataset ds, String label, int rows) {
    SnapshotWriter w = ds.newSnapshot().begin();
    for (int i = 0; i < rows; i++) {
      w.put(Fixtures.key(i), "d", "v", Bytes.toBytes(label + ":" + i));
    }
    return w;
  }

  private static List<String> values(RowScanner scanner) {
    List<String> out = new ArrayList<>();
    try (scanner) {
      for (SnapshotRow r : scanner) {
        out.add(Bytes.toString(r.families().get(Bytes.toBytes("d")).get(Bytes.toBytes("v"))));
      }
    }
    return out;
  }

  private static String label(SnapshotDataset ds) {
    return values(ds.readCurrent().scan(RowScan.all())).get(0).split(":")[0];
  }

  @Test
  void aStagedSnapshotIsReadableByIdOnlyUntilItIsPublished() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("stage"), DatasetProperties.defaults());
    SnapshotInfo v1 = write(ds, "v1", 3).commit();
    SnapshotWriter w = write(ds, "v2", 5);
    SnapshotInfo staged = w.stage();
    assertEquals(SnapshotState.STAGED, staged.state());
    assertEquals(Optional.of(v1.id()), staged.parentId(), "staged on the current snapshot");
    assertEquals(5, staged.rowCount());
    assertThrows(IllegalStateException.class, w::stage, "a writer stages once");
    assertThrows(IllegalStateException.class, w::commit, "a staged writer is done");

    // readable by id, with every row; current, time travel and a transaction's pin still see v1
    assertEquals(List.of("v2:0", "v2:1", "v2:2", "v2:3", "v2:4"), values(ds.readSnapshot(staged.id()).scan(RowScan.all())));
    assertEquals("v1", label(ds));
    assertEquals(v1.id(), ds.readAsOf(Instant.now().plusSeconds(3600)).snapshotId());
    TransactionContext ctx = new TransactionContext(cluster.txClient(), ds);
    ctx.start();
    assertEquals(Optional.of(v1.id()), ds.pinnedSnapshot());
    ctx.finish();
    assertEquals(List.of(staged.id()), ds.stagedSnapshots().stream().map(SnapshotInfo::id).toList());
    assertEquals(List.of(staged.id()), ds.status().staged().stream().map(SnapshotInfo::id).toList());
    assertThrows(SnapshotNotAvailableException.class, () -> ds.rollbackTo(staged.id()).commit(),
        "a rollback cannot make a stage current");

    SnapshotInfo published = ds.publish(staged.id());
    assertEquals(SnapshotState.COMMITTED, published.state());
    assertEquals("v2", label(ds));
    assertEquals(published, ds.publish(staged.id()), "a retried publish publishes once and changes nothing");
    assertEquals(1, ds.history().stream().filter(h -> h.snapshot().equals(staged.id())).count());
    assertTrue(ds.stagedSnapshots().isEmpty());

    List<DatasetEvent.Type> events = ds.events(0, 100).stream().filter(e -> e.snapshot().equals(Optional.of(staged.id()))).map(DatasetEvent::type).toList();
    assertEquals(List.of(DatasetEvent.Type.STAGED, DatasetEvent.Type.PUBLISHED), events);
  }

  /**
   * Found by the protocol simulation: cleanup's sweep deleted the rows of the key ranges between
   * live snapshots, and a STAGED snapshot was not among them, so a stage lost its rows to the
   * first cleanup and was published short.
   */
  @Test
  void cleanupLeavesAStageWhole() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("stageclean"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    write(ds, "v1", 2).commit();
    SnapshotInfo staged = write(ds, "v2", 3).stage();
    write(ds, "v3", 2).commit(); // v1 expires: cleanup has work, and sweeps the ranges between live snapshots
    ds.cleanup();
    assertEquals(List.of("v2:0", "v2:1", "v2:2"), values(ds.readSnapshot(staged.id()).scan(RowScan.all())));
    ds.publish(staged.id(), PublishMode.REPLACE_CURRENT);
    assertEquals(List.of("v2:0", "v2:1", "v2:2"), values(ds.readCurrent().scan(RowScan.all())));
  }

  @Test
  void aPublishChecksItsBaseUnlessToldToReplace() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("stagebase"), DatasetProperties.defaults());
    write(ds, "v1", 2).commit();
    SnapshotInfo staged = write(ds, "staged", 2).stage();
    SnapshotInfo v3 = write(ds, "v3", 2).commit();
    StagedBaseMovedException e = assertThrows(StagedBaseMovedException.class, () -> ds.publish(staged.id()));
    assertEquals(Optional.of(v3.id()), e.current());
    assertTrue(e.getMessage().contains(staged.id().toString()), e.getMessage());
    assertEquals("v3", label(ds), "a refused publish changes nothing");
    assertEquals(SnapshotState.STAGED, ds.snapshot(staged.id()).state());

    SnapshotInfo replaced = ds.publish(staged.id(), PublishMode.REPLACE_CURRENT);
    assertEquals("staged", label(ds));
    assertEquals(Optional.of(v3.id()), replaced.parentId(), "its parent is the snapshot it replaced");
  }

  @Test
  void aDiscardedStageIsNeverReadableAgainAndItsRunMayRunAgain() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("discard"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo v1 = write(ds, "v1", 2).commit();
    SnapshotWriter w = ds.newSnapshot().runId("nightly-5").begin();
    w.put(Fixtures.key(0), "d", "v", Bytes.toBytes("bad:0"));
    SnapshotInfo staged = w.stage();

    SnapshotWriter retry = ds.newSnapshot().runId("nightly-5").begin();
    assertEquals(Optional.of(staged.id()), retry.alreadyPublished().map(SnapshotInfo::id),
        "a retried run finds its stage");
    retry.close();

    SnapshotInfo discarded = ds.discard(staged.id());
    assertTrue(discarded.discarded());
    assertEquals(ds.snapshot(staged.id()), ds.discard(staged.id()), "a second discard changes nothing");
    assertThrows(SnapshotNotAvailableException.class, () -> ds.readSnapshot(staged.id()));
    assertThrows(SnapshotStateException.class, () -> ds.publish(staged.id()), "a discarded stage is refused");
    SnapshotStateException published = assertThrows(SnapshotStateException.class, () -> ds.discard(v1.id()),
        "only a stage can be discarded");
    assertEquals(Optional.of(SnapshotState.COMMITTED), published.state());
    assertEquals(Optional.of(v1.id()), published.snapshot());
    SnapshotStateException notStaged = assertThrows(SnapshotStateException.class,
        () -> ds.publish(v1.id()), "a snapshot committed directly was never staged: publish would not make it current");
    assertTrue(notStaged.getMessage().contains("roll back"), notStaged.getMessage());
    assertEquals("v1", label(ds));
    ds.cleanup();
    assertEquals(0, cluster.rawRows(ds.id(), ds.snapshot(staged.id()).keys()), "cleanup deleted its rows");

    SnapshotWriter again = ds.newSnapshot().runId("nightly-5").begin();
    assertFalse(again.alreadyPublished().isPresent(), "a discarded run may run again");
    again.put(Fixtures.key(0), "d", "v", Bytes.toBytes("good:0"));
    SnapshotInfo good = again.stage();
    ds.publish(good.id());
    assertEquals("good", label(ds));
    assertEquals(Optional.of(good.id()), ds.snapshotForRun("nightly-5").map(SnapshotInfo::id));
    List<DatasetEvent.Type> events = ds.events(0, 100).stream().filter(e -> e.snapshot().equals(Optional.of(staged.id()))).map(DatasetEvent::type).toList();
    assertEquals(List.of(DatasetEvent.Type.STAGED, DatasetEvent.Type.DISCARDED, DatasetEvent.Type.CLEANED), events);
  }

  @Test
  void theReconcilerDiscardsAStagePastItsMaxAge() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("stageage"),
        DatasetProperties.builder().stagedMaxAge(Duration.ofHours(1)).build());
    write(ds, "v1", 2).commit();
    SnapshotInfo old = write(ds, "old", 2).stage();
    Reconciler.ReconcileResult early = Reconciler.runOnce(ds, "test", Duration.ofDays(1));
    assertEquals(SnapshotState.STAGED, ds.snapshot(old.id()).state(), "a young stage stays: " + early);

    SnapshotDataset later = cluster.datasets()
        .withClock(Clock.offset(Clock.system(ZoneOffset.UTC), Duration.ofHours(2))).open(ds.id());
    assertTrue(later.status().attention(Duration.ofMinutes(30)).stream().anyMatch(a -> a.contains(old.id().toString())),
        "status says the stage waits for its audit");
    Reconciler.ReconcileResult r = Reconciler.runOnce(later, "test", Duration.ofDays(1));
    assertTrue(r.repairs().stream().anyMatch(s -> s.contains("discarded staged snapshot " + old.id())), r.toString());
    assertTrue(ds.snapshot(old.id()).discarded());
    assertEquals("v1", label(ds));
  }

  @Test
  void aStageOfAnUnknownOrBuildingSnapshotIsATypedError() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("stagebad"), DatasetProperties.defaults());
    SnapshotNotAvailableException e = assertThrows(SnapshotNotAvailableException.class,
        () -> ds.publish(SnapshotId.of(424242)));
    assertTrue(e.getMessage().contains("424242"), e.getMessage());
    try (SnapshotWriter w = write(ds, "b", 1)) {
      assertThrows(SnapshotNotAvailableException.class, () -> ds.publish(w.snapshotId()));
      assertThrows(SnapshotStateException.class, () -> ds.discard(w.snapshotId()));
    }
    assertEquals(List.of(), ds.stagedSnapshots(), "a refused publish or discard stages nothing");
  }

  /**
   * A library from before staging fails on a STAGED record and its sweep deletes a stage's rows as
   * unowned, so a stage needs format 4, which such a library refuses to open. A format-3 dataset is
   * read and written as it is, refuses a stage without changing anything, and stages after its
   * upgrade. Before format 4, the stage below was recorded on the format-3 dataset.
   */
  @Test
  void aFormatThreeDatasetRefusesAStageUntilItIsUpgraded() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("stageformat");
    cluster.datasets().create(id, DatasetProperties.defaults()).close();
    try (Table meta = cluster.connection().getTable(id.metaTable())) {
      // what a dataset made by the library of format 3 has
      meta.put(new Put(Bytes.toBytes("p")).addColumn(Bytes.toBytes("m"), Bytes.toBytes("format.version"),
          Bytes.toBytes("3")));
    }
    SnapshotDataset ds = cluster.datasets().open(id);
    SnapshotInfo v1 = write(ds, "v1", 3).commit();
    SnapshotWriter w = write(ds, "v2", 4);
    MetadataFormatException refused = assertThrows(MetadataFormatException.class, w::stage);
    assertEquals(3, refused.found());
    assertEquals(4, refused.required());
    assertEquals("dataset " + id + " has metadata format 3, staging a snapshot needs format 4: run 'snapds upgrade "
        + id + "' (or CompositeDatasetAdmin.upgrade()) once, then open it again", refused.getMessage());
    assertEquals(SnapshotState.BUILDING, ds.snapshot(w.snapshotId()).state(), "a refused stage records nothing");
    assertEquals(List.of(), ds.stagedSnapshots());
    assertEquals(v1.id(), ds.currentSnapshot().orElseThrow().id());
    SnapshotInfo v2 = w.commit(); // the writer is still open: it may publish
    assertEquals(List.of("v2:0", "v2:1", "v2:2", "v2:3"), values(ds.readCurrent().scan(RowScan.all())));

    assertEquals(3, cluster.datasets().admin(id).upgrade());
    assertEquals(4, cluster.datasets().admin(id).formatVersion());
    SnapshotWriter early = write(ds, "v3", 2);
    assertThrows(MetadataFormatException.class, early::stage,
        "a process that opened the dataset at format 3 refuses until it opens it again");
    early.abort();
    SnapshotDataset reopened = cluster.datasets().open(id);
    SnapshotInfo staged = write(reopened, "v3", 2).stage();
    assertEquals(SnapshotState.STAGED, staged.state());
    assertEquals(Optional.of(v2.id()), staged.parentId());
    assertEquals(List.of("v3:0", "v3:1"), values(reopened.readSnapshot(staged.id()).scan(RowScan.all())));
    assertEquals(v2.id(), reopened.currentSnapshot().orElseThrow().id(), "staged, not published");
  }
}
