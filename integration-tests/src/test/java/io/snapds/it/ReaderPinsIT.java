package io.snapds.it;

import static io.snapds.it.CleanupIT.rawRows;
import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
