package io.snapds.it;

import static io.snapds.it.CleanupIT.rawRows;
import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.FaultyTxClient;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import org.apache.tephra.Transaction;
import org.apache.tephra.persist.TransactionSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 12: cleanup waits for the readers of this dataset, not for the whole
 * transaction service: the dataset's own building transactions and other applications' long
 * transactions do not hold it back, a long transaction that reads the dataset does, and a
 * writer that died after publishing leaves no transaction behind.
 */
@ExtendWith(MiniClusterExtension.class)
class CleanupWaitsOnlyForReadersIT {
  private final MiniCluster cluster = MiniCluster.get();

  private SnapshotDataset create(String name) {
    return Fixtures.retainingOne(cluster, name);
  }

  private TransactionSnapshot tephra() {
    return cluster.txService().manager().getCurrentState();
  }

  @Test
  void buildsAndForeignLongTransactionsDoNotHoldCleanupBack() throws Exception {
    SnapshotDataset ds = create("nowait");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 50);
    Transaction foreignLong = cluster.txClient().startLong(); // another application's long job
    SnapshotWriter keyedBuild = ds.newSnapshot().sourceKey("range-1").begin(); // a long build of ours
    try {
      writeAndCommit(ds.newSnapshot().begin(), "s2", 5); // expires s1
      CleanupResult result = ds.cleanup();
      assertEquals(List.of(s1.id()), result.cleaned(), "neither the build nor the foreign job reads s1");
      assertEquals(0, rawRows(cluster, ds, s1.id()));
    } finally {
      keyedBuild.abort();
      cluster.txClient().abort(foreignLong);
    }
  }

  @Test
  void aLongTransactionThatReadsTheDatasetStillHoldsIt() throws Exception {
    SnapshotDataset ds = create("longreader");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 50);
    SnapshotDataset reader = cluster.datasets().open(ds.id());
    Transaction longTx = cluster.txClient().startLong();
    reader.startTx(longTx);
    assertEquals(s1.id(), reader.snapshotId());

    writeAndCommit(ds.newSnapshot().begin(), "s2", 5);
    assertEquals(List.of(s1.id()), ds.cleanup().deferred(), "a long transaction reading s1 keeps it");
    assertTrue(Fixtures.observe(reader).matches(s1), "and reads all of it");
    cluster.txClient().commitOrThrow(longTx);
    reader.postTxCommit();

    assertEquals(List.of(s1.id()), ds.cleanup().cleaned(), "once it ended, s1 goes");
  }

  @Test
  void aWriterThatDiedAfterPublishingLeavesNoTransactionBehind() {
    SnapshotDataset created = create("diedafter");
    FaultyTxClient faulty = new FaultyTxClient(cluster.txClient());
    SnapshotDataset ds = SnapshotDatasets.using(cluster.connection(), faulty).open(created.id());
    SnapshotWriter w = ds.newSnapshot().begin();
    long buildTx = w.snapshotId().value();
    faulty.failCommitsOf(buildTx); // the publish commits; ending the build transaction does not
    SnapshotInfo published = writeAndCommit(w, "p", 5);
    assertTrue(tephra().getInProgress().containsKey(buildTx), "the build transaction is left open");

    created.cleanup();
    assertFalse(tephra().getInProgress().containsKey(buildTx), "cleanup ended it");
    assertFalse(tephra().getInvalid().contains(buildTx), "and took it off the invalid list");
    assertEquals(published.id(), created.currentSnapshot().orElseThrow().id());
    assertEquals(5, Fixtures.observe(created.readCurrent()).rows());
  }
}
