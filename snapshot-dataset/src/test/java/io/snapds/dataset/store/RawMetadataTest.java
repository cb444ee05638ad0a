package io.snapds.dataset.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.sim.SimConnection;
import io.snapds.dataset.sim.SimHBase;
import java.util.Optional;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;

/**
 * The raw metadata reads on rows that are not there. HBase's {@code Result.rawCells()} may be
 * null for a result without cells (its javadoc says so; the simulated client returns such a
 * result): the reads took it as never null and failed with a NullPointerException on a dataset
 * that never numbered a snapshot (a truncate of a new dataset, found by the protocol simulation,
 * seed 14 with every fault) and for a record that is gone (a split or a cleanup piece after a
 * truncate).
 */
class RawMetadataTest {
  private static final DatasetId DATASET = DatasetId.of("raw", "empty");

  @Test
  void readsOfMissingRowsAnswerInsteadOfFailing() throws Exception {
    SimConnection connection = new SimConnection(new SimHBase());
    try (Admin admin = connection.getAdmin()) {
      admin.createNamespace(NamespaceDescriptor.create("raw").build());
      admin.createTable(TableDescriptorBuilder.newBuilder(DATASET.metaTable())
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(MetadataLayout.FAMILY)).build());
    }
    assertEquals(Optional.empty(), RawMetadata.recordedKeyNumber(connection, DATASET, SnapshotId.of(42)));
  }
}
