package io.snapds.it;

import static io.snapds.it.Fixtures.key;
import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import org.apache.tephra.TransactionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 1: a reader that outlives what protects its snapshot (its Tephra transaction's
 * timeout, or no transaction at all) either gets every row of the snapshot or a
 * {@link SnapshotNotAvailableException} saying why, never a short result.
 */
@ExtendWith(MiniClusterExtension.class)
class LongReaderGetsEveryRowOrAnErrorIT {
  private final MiniCluster cluster = MiniCluster.get();

  private SnapshotDataset create(String name) {
    return Fixtures.retainingOne(cluster, name);
  }

  private static long count(SnapshotReader reader, RowScan scan) {
    long n = 0;
    try (RowScanner rows = reader.scan(scan)) {
      for (SnapshotRow ignored : rows) {
        n++;
      }
    }
    return n;
  }

  @Test
  void aTransactionThatOutlivedItsTimeoutGetsAnErrorNotAShortResult() throws Exception {
    SnapshotDataset ds = create("longtx");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 200);
    SnapshotDataset reader = cluster.datasets().open(ds.id());
    TransactionContext ctx = new TransactionContext(cluster.txClient(), reader);
    ctx.start(1); // a one-second transaction: Tephra moves it to the invalid list after that
    assertEquals(s1.id(), reader.snapshotId());
    assertEquals(100, count(reader, RowScan.all().range(key(0), key(100))), "first half read while protected");

    writeAndCommit(ds.newSnapshot().begin(), "s2", 10); // retainLast(1): s1 expires
    awaitInvalid(ctx, reader);
    CleanupResult cleaned = ds.cleanup();
    assertEquals(List.of(s1.id()), cleaned.cleaned(), "the timed-out reader no longer holds cleanup back");

    SnapshotNotAvailableException scan = assertThrows(SnapshotNotAvailableException.class,
        () -> count(reader, RowScan.all().range(key(100), key(200))), "the second half must not come back short");
    assertTrue(scan.getMessage().contains("timeout"), scan.getMessage());
    assertTrue(scan.getMessage().contains("pin"), "says what to use instead: " + scan.getMessage());
    assertEquals(s1.id(), scan.snapshot().orElseThrow());
    assertThrows(SnapshotNotAvailableException.class, () -> reader.get(key(150)),
        "a get of a row that was there must not say 'no such row'");
    try {
      ctx.abort();
    } catch (Exception ignored) {
      // the transaction is invalid already
    }
  }

  @Test
  void aReaderOutsideATransactionGetsAnErrorNotAShortResult() {
    SnapshotDataset ds = create("notx");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 200);
    SnapshotReader reader = ds.readCurrent();
    assertEquals(100, count(reader, RowScan.all().range(key(0), key(100))));

    writeAndCommit(ds.newSnapshot().begin(), "s2", 10);
    assertEquals(List.of(s1.id()), ds.cleanup().cleaned(), "nothing protects a reader without a transaction");

    SnapshotNotAvailableException e = assertThrows(SnapshotNotAvailableException.class,
        () -> count(reader, RowScan.all().range(key(100), key(200))));
    assertTrue(e.getMessage().contains("pin"), "says what to use instead: " + e.getMessage());
    assertThrows(SnapshotNotAvailableException.class, () -> reader.get(List.of(key(150), key(151))));
  }

  @Test
  void aReaderThatFinishesBeforeCleanupGetsEveryRowWithoutError() {
    SnapshotDataset ds = create("complete");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 200);
    SnapshotReader reader = ds.readCurrent();
    writeAndCommit(ds.newSnapshot().begin(), "s2", 10);
    Fixtures.Observation seen = Fixtures.observe(reader);
    assertTrue(seen.matches(s1), "expired but not cleaned: every row, no error: " + seen);
    assertEquals(2, reader.get(List.of(key(0), key(199))).stream().filter(r -> r.isPresent()).count());
  }

  /** Waits (bounded) until Tephra has timed the reader's transaction out. */
  /**
   * Issue #14 (gets at raw speed): a get that finds its row needs no cleaning check, since a row
   * is deleted whole; only a miss can be a row deleted under the reader. With the cleaning mark set
   * and the rows still there (cleanup between its mark and its deletes), a hit returns the row and
   * a miss fails. (Before, every get read the lock table too, and the hit failed as well.)
   */
  @Test
  void aGetThatFindsItsRowNeedsNoCleaningCheckAndAMissStillFails() {
    SnapshotDataset ds = create("hit");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 20);
    SnapshotReader reader = ds.readCurrent();
    new io.snapds.dataset.lock.LockTable(cluster.connection(), ds.id().lockTable(), java.time.Clock.systemUTC())
        .markCleaning(s1.id());
    assertTrue(reader.get(key(5)).isPresent(), "a row found is whole: returned");
    assertEquals(2, reader.get(List.of(key(0), key(19))).stream().filter(r -> r.isPresent()).count());
    assertThrows(SnapshotNotAvailableException.class, () -> reader.get(key(500)),
        "a miss may be a deleted row: it fails rather than say 'no such row'");
    assertThrows(SnapshotNotAvailableException.class, () -> reader.get(List.of(key(0), key(500))));
    assertThrows(SnapshotNotAvailableException.class, () -> count(reader, RowScan.all()), "a scan checks as before");
  }

  private void awaitInvalid(TransactionContext ctx, SnapshotDataset reader) throws InterruptedException {
    long id = ctx.getCurrentTransaction().getTransactionId();
    for (int i = 0; i < 100 && !cluster.txService().manager().getCurrentState().getInvalid().contains(id); i++) {
      Thread.sleep(100);
    }
    assertTrue(cluster.txService().manager().getCurrentState().getInvalid().contains(id),
        "the reader's transaction " + id + " timed out");
  }
}
