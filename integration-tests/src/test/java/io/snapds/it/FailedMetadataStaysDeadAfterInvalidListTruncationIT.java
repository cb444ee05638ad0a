package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CommitStateUnknownException;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.FaultyTxClient;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionSystemClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 7: the metadata written by a publish whose transaction failed (invalidated)
 * is physically removed by cleanup, so when an operator later truncates Tephra's invalid list
 * the phantom publish (current pointer, history entry, run id) does not come back.
 */
@ExtendWith(MiniClusterExtension.class)
class FailedMetadataStaysDeadAfterInvalidListTruncationIT {
  @Test
  void aFailedPublishStaysInvisibleAfterTheInvalidListIsTruncated() {
    MiniCluster cluster = MiniCluster.get();
    TransactionSystemClient tephra = cluster.txClient();
    FaultyTxClient faulty = new FaultyTxClient(tephra);
    SnapshotDataset ds = SnapshotDatasets.using(cluster.connection(), faulty)
        .create(MiniCluster.uniqueDataset("phantom"), DatasetProperties.defaults());
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 3);

    SnapshotWriter w = ds.newSnapshot().runId("run-phantom").begin();
    w.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("x"));
    faulty.failCommits(1);
    assertThrows(CommitStateUnknownException.class, w::commit);
    // the publish transaction wrote its metadata but never committed: it times out into the
    // invalid list (invalidated here instead of waiting for the timeout)
    Set<Long> publishTx = new HashSet<>();
    Transaction probe = tephra.startShort();
    for (long t : probe.getInProgress()) {
      if (t > w.snapshotId().value()) {
        publishTx.add(t);
      }
    }
    tephra.abort(probe);
    assertFalse(publishTx.isEmpty(), "the failed publish is still in progress");
    publishTx.forEach(tephra::invalidate);
    assertEquals(before.id(), ds.currentSnapshot().orElseThrow().id(), "invisible while on the invalid list");

    ds.cleanup();
    assertTrue(tephra.truncateInvalidTx(publishTx), "what an operator's truncateInvalidTx does");

    assertEquals(before.id(), ds.currentSnapshot().orElseThrow().id(), "no phantom current snapshot");
    assertTrue(ds.snapshotForRun("run-phantom").isEmpty(), "no phantom run id");
    for (HistoryEntry h : ds.history()) {
      assertFalse(h.snapshot().equals(w.snapshotId()), "no phantom history entry: " + h);
    }
    assertTrue(Fixtures.observe(ds.readCurrent()).matches(before));

    // the writer whose outcome was unknown still holds its building transaction (an hour by
    // default): end it as its timeout would, so that cleanup here and in later tests need not wait
    tephra.invalidate(w.snapshotId().value());
    assertTrue(ds.cleanup().abortedDeadWriters().contains(w.snapshotId()));
  }
}
