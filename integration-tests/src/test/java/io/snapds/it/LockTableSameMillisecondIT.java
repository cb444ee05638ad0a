package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the real HBase: a lock-table row deleted and written again within one millisecond keeps the
 * new write (the lock families have NEW_VERSION_BEHAVIOR; without it the marker hid the new grant,
 * and a second writer was granted the same lock: {@code LockTableSameMillisecondTest} shows that
 * on the simulation). {@code upgrade()} turns it on for a dataset created before.
 */
@ExtendWith(MiniClusterExtension.class)
class LockTableSameMillisecondIT {
  private static final byte[] LOCK_FAMILY = io.snapds.dataset.lock.LockTable.FAMILY;
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aLockRowDeletedAndWrittenInTheSameMillisecondKeepsTheWrite() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("samems");
    cluster.datasets().admin(id).create(DatasetProperties.builder().build());
    assertTrue(newVersionBehavior(id), "created with it");
    assertTheWriteAfterADeleteOfItsMillisecondIsKept(id, "a");

    // a dataset created by an earlier version: its lock families lack it until upgrade()
    try (Admin admin = cluster.connection().getAdmin()) {
      ColumnFamilyDescriptor old = admin.getDescriptor(id.lockTable()).getColumnFamily(LOCK_FAMILY);
      admin.modifyColumnFamily(id.lockTable(),
          ColumnFamilyDescriptorBuilder.newBuilder(old).setNewVersionBehavior(false).build());
    }
    assertFalse(newVersionBehavior(id));
    cluster.datasets().admin(id).upgrade();
    assertTrue(newVersionBehavior(id), "upgrade brings it");
    assertTheWriteAfterADeleteOfItsMillisecondIsKept(id, "b");
  }

  private void assertTheWriteAfterADeleteOfItsMillisecondIsKept(DatasetId id, String row) throws Exception {
    byte[] key = Bytes.toBytes("Ltest-" + row);
    byte[] q = Bytes.toBytes("owner");
    long ms = System.currentTimeMillis();
    try (Table lock = cluster.connection().getTable(id.lockTable())) {
      lock.put(new Put(key).addColumn(LOCK_FAMILY, q, ms, Bytes.toBytes("released")));
      lock.delete(new Delete(key, ms)); // a removal of the idle lock
      lock.put(new Put(key).addColumn(LOCK_FAMILY, q, ms, Bytes.toBytes("granted"))); // a grant of that millisecond
      assertArrayEquals(Bytes.toBytes("granted"), lock.get(new Get(key)).getValue(LOCK_FAMILY, q),
          "the grant is visible");
    }
  }

  private boolean newVersionBehavior(DatasetId id) throws Exception {
    try (Admin admin = cluster.connection().getAdmin()) {
      return admin.getDescriptor(id.lockTable()).getColumnFamily(LOCK_FAMILY).isNewVersionBehavior()
          && admin.getDescriptor(id.lockTable()).getColumnFamily(io.snapds.dataset.lock.LockTable.PIN_FAMILY)
              .isNewVersionBehavior();
    }
  }
}
