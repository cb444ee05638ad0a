package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.admin.CompositeDatasetAdmin;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.List;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The composite admin treats the three tables as one dataset. */
@ExtendWith(MiniClusterExtension.class)
class AdminIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void createTruncateUpgradeDrop() throws Exception {
    DatasetId id = DatasetId.of("adminns", "lifecycle");
    CompositeDatasetAdmin admin = cluster.datasets().admin(id);
    assertFalse(admin.exists());
    DatasetProperties props = DatasetProperties.builder().families("d", "extra")
        .retention(RetentionPolicy.retainLast(4)).build();
    admin.create(props);
    assertTrue(admin.exists());
    assertEquals(props, admin.properties());
    assertTrue(cluster.datasets().list().contains(id));

    SnapshotDataset ds = cluster.datasets().open(id);
    writeAndCommit(ds.newSnapshot().begin(), "a", 5);
    admin.truncate();
    assertTrue(ds.currentSnapshot().isEmpty(), "truncate removes every snapshot");
    assertEquals(List.of(), ds.snapshots());
    assertEquals(props, admin.properties(), "and keeps the properties");
    writeAndCommit(ds.newSnapshot().begin(), "b", 2);
    assertEquals(2, ds.currentSnapshot().orElseThrow().rowCount());

    try (Admin hbase = cluster.connection().getAdmin()) {
      hbase.deleteColumnFamily(id.dataTable(), Bytes.toBytes("extra"));
      assertFalse(hbase.getDescriptor(id.dataTable()).hasColumnFamily(Bytes.toBytes("extra")));
      admin.upgrade();
      assertTrue(hbase.getDescriptor(id.dataTable()).hasColumnFamily(Bytes.toBytes("extra")),
          "upgrade brings the tables back to the properties");
    }
    admin.drop();
    assertFalse(admin.exists());
    assertFalse(cluster.datasets().list().contains(id));
    admin.drop(); // dropping what is gone is a no-op
  }
}
