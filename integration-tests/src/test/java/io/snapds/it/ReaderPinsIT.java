package io.snapds.it;

import static io.snapds.it.CleanupIT.rawRows;
import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasets;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.tephra.Transaction;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.mapreduce.SnapshotInputFormatImpl;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 13: a reader pin that lapsed and was collected by cleanup stays gone (renewing
 * it fails instead of pretending to protect rows that are deleted), and computing splits again
 * does not leave the first computation's pin behind, renewed for ever.
 */
@ExtendWith(MiniClusterExtension.class)
class ReaderPinsIT {
  private final MiniCluster cluster = MiniCluster.get();

  private SnapshotDataset create(String name) {
    return Fixtures.retainingOne(cluster, name);
  }

  private int livePins(SnapshotDataset ds, SnapshotInfo s) {
    return new LockTable(cluster.connection(), ds.id().lockTable(), Clock.systemUTC()).livePins(s.id());
  }

  @Test
  void renewingAPinThatLapsedAndWasCleanedFails() throws Exception {
    SnapshotDataset ds = create("lapsed");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 20);
    ReaderPin pin = ds.pin(s1.id(), "slow job", Duration.ofMillis(300));
    writeAndCommit(ds.newSnapshot().begin(), "s2", 2);
    Thread.sleep(600); // the pin lapses
    assertEquals(List.of(s1.id()), ds.cleanup().cleaned(), "a lapsed pin does not hold cleanup");
    assertEquals(0, rawRows(cluster, ds, s1.id()));

    SnapshotNotAvailableException e = assertThrows(SnapshotNotAvailableException.class,
        () -> pin.renew(Duration.ofMinutes(10)), "the pin must not come back over deleted rows");
    assertTrue(e.getMessage().contains(pin.pinId()), e.getMessage());
    assertEquals(0, livePins(ds, s1), "and no pin row was written back");
  }

  @Test
  void renewingALivePinKeepsItsSnapshot() throws Exception {
    SnapshotDataset ds = create("renewed");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 20);
    ReaderPin pin = ds.pin(s1.id(), "job", Duration.ofMillis(500));
    pin.renew(Duration.ofMinutes(10));
    writeAndCommit(ds.newSnapshot().begin(), "s2", 2);
    Thread.sleep(600); // past the first time-to-live
    assertEquals(List.of(s1.id()), ds.cleanup().deferred());
    assertEquals(20, rawRows(cluster, ds, s1.id()));
    pin.close();
  }

  @Test
  void computingSplitsTwiceLeavesOnePin() throws Exception {
    SnapshotDataset ds = create("twice");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 20);
    Configuration conf = new Configuration(cluster.configuration());
    conf.set(JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
    SnapshotInputFormatImpl.setInput(conf, ds.id(), SnapshotSelector.current());
    SnapshotInputFormatImpl.getSplits(conf);
    SnapshotInputFormatImpl.getSplits(conf);
    assertEquals(1, livePins(ds, s1), "the second computation replaced the first one's pin");
    assertTrue(SnapshotInputFormatImpl.releasePin(conf));
    assertEquals(0, livePins(ds, s1), "releasing the job's pin leaves none behind");
  }
  /**
   * Issue #36 item 6: a long transaction resolves its snapshot, then writes its reader pin. A
   * publish that expires that snapshot, the cleanup fence set after it and a cleanup that deletes
   * its rows, all between the two, must not leave the transaction believing the pin protects
   * it: after writing the pin it reads the snapshot's record afresh, and a snapshot fenced for
   * cleanup (or cleaned) by then refuses the transaction with a typed error, leaving no pin.
   */
  @Test
  void aLongTransactionWhoseSnapshotIsCleanedBeforeItsPinIsWrittenIsRefused() throws Exception {
    SnapshotDataset ds = create("longpin");
    SnapshotInfo s1 = writeAndCommit(ds.newSnapshot().begin(), "s1", 20);
    AtomicReference<CleanupResult> cleanup = new AtomicReference<>();
    Connection hooked = beforeFirstPinWrite(cluster.connection(), ds.id(), () -> {
      writeAndCommit(ds.newSnapshot().begin(), "s2", 2); // expires s1 (retain 1) and fences it for cleanup
      cleanup.set(ds.cleanup());
    });
    SnapshotDataset reader = SnapshotDatasets.using(hooked, cluster.txClient()).open(ds.id());
    Transaction longTx = cluster.txClient().startLong();
    try {
      SnapshotNotAvailableException refused = null;
      try {
        reader.startTx(longTx); // reads current (s1), then the hook runs, then the pin is written
      } catch (SnapshotNotAvailableException e) {
        refused = e;
      }
      assertEquals(List.of(s1.id()), cleanup.get().cleaned(), "the hook ran between the read and the pin");
      assertEquals(0, rawRows(cluster, ds, s1.id()));
      if (refused == null) {
        // what the old code did: the pin went in over deleted rows, and the read is cut off
        Fixtures.Observation seen = Fixtures.observe(reader);
        throw new AssertionError("the long transaction started on s1 with a pin written after its rows were"
            + " deleted, and read " + seen.rows() + " of 20 rows");
      }
      assertTrue(refused.getMessage().contains(s1.id().toString()), refused.getMessage());
      assertEquals(0, livePins(ds, s1), "a refused transaction leaves no pin behind");
      reader.rollbackTx();
    } finally {
      cluster.txClient().abort(longTx);
    }
    Transaction next = cluster.txClient().startLong(); // a new transaction pins the new current
    try {
      reader.startTx(next);
      assertEquals(2, Fixtures.observe(reader).rows());
      reader.postTxCommit();
    } finally {
      cluster.txClient().abort(next);
    }
  }

  /** The cluster's connection, with {@code hook} run once before the first reader pin row is written. */
  private static Connection beforeFirstPinWrite(Connection connection, DatasetId dataset, Runnable hook) {
    AtomicBoolean armed = new AtomicBoolean(true);
    return (Connection) Proxy.newProxyInstance(ReaderPinsIT.class.getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          Object result = invoke(connection, method, args);
          if (method.getName().equals("getTable") && args != null && args.length >= 1
              && dataset.lockTable().equals(args[0])) {
            Table table = (Table) result;
            return Proxy.newProxyInstance(ReaderPinsIT.class.getClassLoader(), new Class<?>[] {Table.class},
                (p, m, a) -> {
                  if (m.getName().equals("put") && a != null && a[0] instanceof Put put && put.getRow()[0] == 'P'
                      && armed.getAndSet(false)) {
                    hook.run();
                  }
                  return invoke(table, m, a);
                });
          }
          return result;
        });
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
