package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetAlreadyExistsException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.admin.CompositeDatasetAdmin;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every bad input gets a typed error naming the bad value, and changes nothing committed. */
@ExtendWith(MiniClusterExtension.class)
class BadInputIT {
  private final MiniCluster cluster = MiniCluster.get();

  private static void assertMessage(String expected, Class<? extends Throwable> type, Runnable r) {
    Throwable e = assertThrows(type, r::run);
    assertEquals(expected, e.getMessage());
  }

  @Test
  void badRowsAreRejectedAndTheWriterCarriesOn() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("badrows"), DatasetProperties.defaults());
    SnapshotInfo before = writeAndCommit(ds.newSnapshot().begin(), "before", 4);
    SnapshotWriter w = ds.newSnapshot().begin();
    byte[] v = Bytes.toBytes("v");
    assertMessage("row key must not be empty", IllegalArgumentException.class,
        () -> w.put(new byte[0], "d", "q", v));
    assertMessage("row key must not be null", IllegalArgumentException.class, () -> w.put((byte[]) null, "d", "q", v));
    byte[] longKey = new byte[40_000];
    IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class, () -> w.put(longKey, "d", "q", v));
    assertTrue(tooLong.getMessage().startsWith("row key of 40000 bytes is longer than the limit of 32759 bytes"),
        tooLong.getMessage());
    assertMessage("unknown column family 'nope': the dataset has [d]", IllegalArgumentException.class,
        () -> w.put(Bytes.toBytes("k"), "nope", "q", v));
    assertMessage("value of d:q must not be null (use delete)", IllegalArgumentException.class,
        () -> w.put(Bytes.toBytes("k"), "d", "q", null));
    IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
        () -> w.put(Bytes.toBytes("k"), "d", "q", new byte[11 * 1024 * 1024]));
    assertTrue(big.getMessage().contains("over the limit of 10485760 bytes"), big.getMessage());
    assertEquals(before.id(), ds.currentSnapshot().orElseThrow().id());
    SnapshotInfo after = writeAndCommit(w, "after", 2);
    assertEquals(2, after.rowCount(), "rejected rows were not written");
    assertMessage("snapshot " + after.id() + " is COMMITTED: no more writes", IllegalStateException.class,
        () -> w.put(Bytes.toBytes("k"), "d", "q", v));
    SnapshotWriter aborted = ds.newSnapshot().begin();
    aborted.abort();
    assertMessage("snapshot " + aborted.snapshotId() + " is ABORTED: no more writes", IllegalStateException.class,
        () -> aborted.put(Bytes.toBytes("k"), "d", "q", v));
    assertMessage("snapshot " + aborted.snapshotId() + " is ABORTED, cannot commit", IllegalStateException.class,
        aborted::commit);
  }

  @Test
  void unknownSnapshotsAndDatasetsAreNamed() {
    DatasetId id = MiniCluster.uniqueDataset("missing");
    assertMessage("dataset " + id + " not found", DatasetNotFoundException.class, () -> cluster.datasets().open(id));
    SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
    assertMessage("dataset " + id + " already exists", DatasetAlreadyExistsException.class,
        () -> cluster.datasets().create(id, DatasetProperties.defaults()));
    assertMessage("dataset " + id + " has no published snapshot yet", SnapshotNotAvailableException.class,
        ds::readCurrent);
    assertMessage("snapshot 77 does not exist in dataset " + id, SnapshotNotAvailableException.class,
        () -> ds.readSnapshot(SnapshotId.of(77)));
  }

  @Test
  void aDatasetWithAMissingTableDoesNotOpen() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("halfgone");
    cluster.datasets().create(id, DatasetProperties.defaults());
    try (Admin admin = cluster.connection().getAdmin()) {
      admin.disableTable(id.lockTable());
      admin.deleteTable(id.lockTable());
    }
    assertMessage("dataset " + id + " not found: missing tables [" + id.lockTable().getNameAsString()
        + "] (drop and create the dataset again, or restore them)", DatasetNotFoundException.class,
        () -> cluster.datasets().open(id));
    new CompositeDatasetAdmin(id, cluster.connection()).drop();
    assertEquals(false, cluster.datasets().exists(id));
  }

  @Test
  void corruptMetadataFailsNamingTheRowAndChangesNothing() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("corrupt");
    SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults());
    SnapshotInfo good = writeAndCommit(ds.newSnapshot().begin(), "good", 3);
    try (Table meta = cluster.connection().getTable(id.metaTable())) {
      meta.put(new Put(Bytes.toBytes("p")).addColumn(Bytes.toBytes("m"), Bytes.toBytes("lock.lease"),
          Bytes.toBytes("forever")));
    }
    assertMessage("corrupt metadata in dataset " + id + ", row 'p': property 'lock.lease' is not a duration: 'forever'",
        CorruptMetadataException.class, () -> cluster.datasets().open(id));

    byte[] row = Bytes.add(new byte[] {'n'}, good.id().toBytes());
    // as if a committed transaction had written a state this library does not know
    org.apache.tephra.Transaction tx = cluster.txClient().startShort();
    try (Table meta = cluster.connection().getTable(id.metaTable())) {
      meta.put(new Put(row).addColumn(Bytes.toBytes("m"), Bytes.toBytes("state"), tx.getWritePointer(),
          Bytes.toBytes("HALF_DONE")));
    }
    cluster.txClient().commitOrThrow(tx);
    CorruptMetadataException e = assertThrows(CorruptMetadataException.class, ds::currentSnapshot);
    assertEquals("corrupt metadata in dataset " + id + ", row '" + Bytes.toStringBinary(row)
        + "': unknown state 'HALF_DONE'", e.getMessage());
    assertEquals(Bytes.toStringBinary(row), e.row());
    assertThrows(CorruptMetadataException.class, () -> ds.newSnapshot().begin());
    assertEquals(0, ds.lockStatus("writer").waiters());
    assertEquals(false, ds.lockStatus("writer").isHeld(java.time.Instant.now()), "a failed begin releases the lock");
  }
}
