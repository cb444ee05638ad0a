package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.CommitConflictException;
import io.snapds.dataset.CommitStateUnknownException;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.FaultyTxClient;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Injected transaction failures: more conflicts than retries, and a commit whose outcome is unknown. */
@ExtendWith(MiniClusterExtension.class)
class FailureIT {
  private final MiniCluster cluster = MiniCluster.get();
  private final FaultyTxClient tx = new FaultyTxClient(cluster.txClient());
  private final SnapshotDatasets datasets = SnapshotDatasets.using(cluster.connection(), tx);

  @Test
  void moreConflictsThanRetriesFailCleanlyAndTheWriterCanCommitLater() {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("conflict"),
        DatasetProperties.builder().commitRetries(2).build());
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 3);
    SnapshotWriter w = ds.newSnapshot().begin();
    w.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("x"));
    tx.failConflictChecks(3);
    CommitConflictException e = assertThrows(CommitConflictException.class, w::commit);
    assertEquals("publish snapshot " + w.snapshotId() + " on dataset " + ds.id()
        + " conflicted with a concurrent change", e.getMessage());
    assertEquals(before.id(), ds.currentSnapshot().orElseThrow().id(), "nothing published");
    assertEquals(SnapshotState.BUILDING, ds.snapshot(w.snapshotId()).state());
    assertEquals(before, ds.snapshot(before.id()), "nothing committed changed");

    SnapshotInfo published = w.commit();
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(1, published.rowCount());
  }

  @Test
  void conflictsWithinTheRetryLimitAreInvisible() {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("retry"),
        DatasetProperties.builder().commitRetries(3).build());
    SnapshotWriter w = ds.newSnapshot().begin();
    tx.failConflictChecks(3);
    SnapshotInfo published = Fixtures.writeAndCommit(w, "x", 4);
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id());
  }

  @Test
  void aDatasetWithDefaultPropertiesOutlastsMoreThanTenLostRacesOnAPublish() {
    // many writers starting at once (SharedBuildIT on a loaded machine) each lose a race to every
    // one that commits first: the default budget must outlast more than 10 of them
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("manyraces"), DatasetProperties.defaults());
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 3);
    SnapshotWriter w = ds.newSnapshot().begin();
    w.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("x"));
    int lost = 12;
    tx.failConflictChecks(lost);
    SnapshotInfo published = w.commit();
    assertEquals(lost, tx.conflictsInjected(), "the publish lost " + lost + " races before it committed");
    assertEquals(published.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(w.snapshotId(), published.id());
    assertEquals(1, published.rowCount());
    assertTrue(before.id().value() < published.id().value());
  }

  @Test
  void aDeferrableCleanupStepGivesUpAfterItsShortBudgetAndTheNextRunDoesIt() throws Exception {
    // with DEFAULT properties (the long budget of commit.retries): cleanup's bookkeeping is
    // deferrable, so it gives up after a short budget instead of waiting out the long one
    cluster.endLeftoverTransactions(); // writers the other tests left open count as readers
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("deferrable"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo first = writeAndCommit(ds.newSnapshot().begin(), "first", 5);
    SnapshotInfo second = writeAndCommit(ds.newSnapshot().begin(), "second", 4);
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(first.id()).state());
    assertTrue(ds.snapshot(first.id()).cleanupFence() != 0, "the publish fenced it");

    tx.failConflictChecks(1_000); // every metadata commit with changes loses its race from here on
    CleanupResult result = ds.cleanup();
    int attempts = tx.conflictsInjected();
    tx.failConflictChecks(0);
    assertEquals(List.of(first.id()), result.cleaned(), "the expired snapshot was cleaned");
    assertEquals(0, cluster.rawRows(ds.id(), first.id()), "its rows are gone");
    assertTrue(ds.snapshot(first.id()).cleanedAt().isEmpty(), "recording it lost every race");
    // the one step with something to commit (no dead writer, nothing past the horizon or the
    // event window) is the record of the cleanup: 1 + 10 attempts, not the 1 + 30 of an operation
    assertEquals(11, attempts, "attempts of the deferrable record of the cleanup");
    assertTrue(attempts < 1 + ds.properties().commitRetries());

    CleanupResult next = ds.cleanup();
    assertEquals(0, next.rowsDeleted(), "nothing was left to delete");
    assertTrue(ds.snapshot(first.id()).cleanedAt().isPresent(), "the next run recorded the cleanup");
    assertEquals(11, tx.conflictsInjected(), "the next run lost no race");
    assertEquals(true, Fixtures.observe(ds.readCurrent()).matches(second), "readers see the current one whole");
  }

  @Test
  void aCommitWithUnknownOutcomeIsReportedAsUnknownAndChangesNothingVisible() {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("unknown"), DatasetProperties.defaults());
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 3);
    SnapshotWriter w = ds.newSnapshot().begin();
    w.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("x"));
    tx.failCommits(1);
    CommitStateUnknownException e = assertThrows(CommitStateUnknownException.class, w::commit);
    assertEquals("outcome of publish snapshot " + w.snapshotId() + " on dataset " + ds.id() + " is unknown",
        e.getMessage());
    // the caller checks the state, as the exception says: here the commit did not happen
    assertEquals(before.id(), ds.currentSnapshot().orElseThrow().id());
    assertEquals(SnapshotState.BUILDING, ds.snapshot(w.snapshotId()).state());
    assertEquals(true, Fixtures.observe(ds.readCurrent()).matches(before), "readers still see the old snapshot whole");
  }

  @Test
  void cleanupWhoseBookkeepingConflictsOnEveryAttemptReportsItsDeletesAndTheNextRunRecordsThem() throws Exception {
    // under steady publishing every metadata commit writes the pointer row, so cleanup's last
    // steps (recording what it deleted, trimming the metadata) can lose every race: the deletes
    // are done and must not be reported as a failed cleanup.
    // Writers the other tests of this class left open count as readers: end them first.
    cluster.endLeftoverTransactions();
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("bookkeeping"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).commitRetries(2).build());
    SnapshotInfo first = writeAndCommit(ds.newSnapshot().begin(), "first", 5);
    SnapshotInfo second = writeAndCommit(ds.newSnapshot().begin(), "second", 4);
    assertEquals(SnapshotState.EXPIRED, ds.snapshot(first.id()).state());

    tx.failConflictChecks(1_000); // every metadata commit with changes conflicts from here on
    CleanupResult result = ds.cleanup();
    tx.failConflictChecks(0);
    assertEquals(List.of(first.id()), result.cleaned(), "the expired snapshot was cleaned");
    assertEquals(5, result.rowsDeleted());
    assertEquals(0, cluster.rawRows(ds.id(), first.id()), "its rows are gone");
    assertTrue(ds.snapshot(first.id()).cleanedAt().isEmpty(), "recording it lost every race");
    assertEquals(true, Fixtures.observe(ds.readCurrent()).matches(second), "readers see the current one whole");

    CleanupResult next = ds.cleanup();
    assertEquals(0, next.rowsDeleted(), "nothing was left to delete");
    assertTrue(ds.snapshot(first.id()).cleanedAt().isPresent(), "the next run recorded the cleanup");
    assertEquals(second.id(), ds.currentSnapshot().orElseThrow().id());
  }

}
