package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MiniClusterExtension.class)
class UpgradeCommandTest {
  @Test
  void anOldFormatDatasetSaysToUpgradeAndUpgradeMakesItUsable() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("upgrade");
    assertEquals(0, Cli.run("create", id.toString()).exitCode());
    try (Table meta = MiniCluster.get().connection().getTable(id.metaTable())) {
      meta.put(new Put(Bytes.toBytes("p")).addColumn(Bytes.toBytes("m"), Bytes.toBytes("format.version"),
          Bytes.toBytes("1")));
    }
    Cli.Result refused = Cli.run("history", id.toString());
    assertNotEquals(0, refused.exitCode());
    assertTrue(refused.err().contains("run 'snapds upgrade " + id + "'"), refused.toString());

    Cli.Result upgraded = Cli.run("upgrade", id.toString());
    assertEquals(0, upgraded.exitCode(), upgraded.toString());
    assertEquals("upgraded dataset " + id + " from metadata format 1 to 4\n", upgraded.out());
    assertEquals(0, Cli.run("history", id.toString()).exitCode());
    Cli.Result again = Cli.run("upgrade", id.toString());
    assertEquals("dataset " + id + " is at metadata format 4 already; tables checked\n", again.out());
  }
}
