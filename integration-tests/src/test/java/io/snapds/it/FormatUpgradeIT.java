package io.snapds.it;

import static io.snapds.it.OldLayoutBuilder.millis;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.MetadataFormatException;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #11 item 5: a dataset written in the format 1 layout is refused with a message saying
 * what to run, and {@code CompositeDatasetAdmin.upgrade()} upgrades it in place keeping every
 * committed snapshot, history entry, tag and run id.
 */
@ExtendWith(MiniClusterExtension.class)
class FormatUpgradeIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void anOldFormatDatasetIsRefusedThenUpgradedInPlaceKeepingEverything() throws Exception {
    SnapshotId s1 = SnapshotId.of(1001);
    SnapshotId s2 = SnapshotId.of(1002);
    SnapshotId s3 = SnapshotId.of(1003);
    DatasetId id = new OldLayoutBuilder(cluster, MiniCluster.uniqueDataset("oldfmt"))
        .snapshot(new OldLayoutBuilder.Old(s1, "EXPIRED", millis("2026-11-01T00:00:00Z"), millis("2026-11-02T00:00:00Z"),
            "run-1", null, null, 0, "one"))
        .snapshot(new OldLayoutBuilder.Old(s2, "COMMITTED", millis("2026-11-03T00:00:00Z"), 0, "run-2", null, "gold", 4, "two"))
        .snapshot(new OldLayoutBuilder.Old(s3, "COMMITTED", millis("2026-11-04T00:00:00Z"), 0, "run-3", "src-3", null, 5, "three"))
        .history(millis("2026-11-01T00:00:00Z"), s1, "publish")
        .history(millis("2026-11-03T00:00:00Z"), s2, "publish")
        .history(millis("2026-11-04T00:00:00Z"), s3, "publish")
        .commit();
    SnapshotDatasets datasets = cluster.datasets();

    MetadataFormatException refused = assertThrows(MetadataFormatException.class, () -> datasets.open(id));
    assertEquals("dataset " + id + " has metadata format 1, this library needs format 2: run 'snapds upgrade "
        + id + "' (or CompositeDatasetAdmin.upgrade()) once, then open it again", refused.getMessage());

    assertEquals(1, datasets.admin(id).upgrade());
    SnapshotDataset ds = datasets.open(id);

    assertEquals(List.of(s3, s2, s1), ds.snapshots().stream().map(SnapshotInfo::id).toList());
    assertEquals(List.of(s3, s2), ds.retainedSnapshots().stream().map(SnapshotInfo::id).toList());
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(s1).state());
    assertEquals(Set.of("gold"), ds.snapshot(s2).tags());
    assertEquals(List.of(s1, s2, s3), ds.history().stream().map(HistoryEntry::snapshot).toList());
    assertEquals(s3, ds.currentSnapshot().orElseThrow().id());
    assertEquals(s2, ds.readTag("gold").snapshotId());
    assertEquals(s2, ds.readAsOf(Instant.parse("2026-11-03T12:00:00Z")).snapshotId());
    assertEquals(s2, ds.snapshotForRun("run-2").orElseThrow().id());
    assertEquals(s1, ds.snapshotForRun("run-1").orElseThrow().id());
    assertEquals(s3, ds.snapshotForSource("src-3").orElseThrow().id());
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(ds.snapshot(s3)));
    assertTrue(Fixtures.observe(ds.readSnapshot(s2)).matches(ds.snapshot(s2)));
    assertEquals(s2, ds.newSnapshot().runId("run-2").begin().alreadyPublished().orElseThrow().id(),
        "a run id published before the upgrade is still published once");

    SnapshotInfo next = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "four", 2);
    assertEquals(next.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(0, ds.snapshot(s3).keyNumber(), "the old snapshots keep their 8-byte prefix");
    assertEquals(1, next.keyNumber(), "an upgraded dataset numbers its new snapshots (format 3)");
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(next));
    assertEquals(List.of(next.id(), s3, s2), ds.retainedSnapshots().stream().map(SnapshotInfo::id).toList());
    assertEquals(io.snapds.dataset.SnapshotDatasets.formatVersion(), datasets.admin(id).upgrade(),
        "upgrading again changes nothing");
    assertEquals(4, datasets.open(id).snapshots().size());
  }
}
