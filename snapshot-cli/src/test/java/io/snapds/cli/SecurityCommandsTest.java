package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.Fuzz;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The security options and commands as a user meets them (on the shared, unsecured mini cluster:
 * the roles themselves are proven in integration-tests-security), and bad input files that
 * must publish nothing.
 */
@ExtendWith(MiniClusterExtension.class)
class SecurityCommandsTest {
  @TempDir
  Path dir;

  @Test
  void principalAndKeytabGoTogetherAndTheKeytabMustBeReadable() throws Exception {
    Cli.Result alone = Cli.run("--principal", "etl@EXAMPLE.COM", "list");
    assertEquals(ExitCodes.USAGE, alone.exitCode(), alone.toString());
    assertEquals("snapds: --principal and --keytab go together: got --principal 'etl@EXAMPLE.COM' and --keytab (none)\n",
        alone.err());

    Path missing = dir.resolve("nope.keytab");
    Cli.Result unreadable = Cli.run("--principal", "etl@EXAMPLE.COM", "--keytab", missing.toString(), "list");
    assertEquals(ExitCodes.USAGE, unreadable.exitCode(), unreadable.toString());
    assertEquals("snapds: keytab " + missing + " is not a readable file\n", unreadable.err());

    Path keytab = Files.write(dir.resolve("etl.keytab"), new byte[] {5, 2});
    Cli.Result embedded = Cli.run("--principal", "etl@EXAMPLE.COM", "--keytab", keytab.toString(), "list");
    assertEquals(ExitCodes.USAGE, embedded.exitCode(), embedded.toString());
    assertEquals("snapds: --principal/--keytab need a cluster (--hbase-site or --zookeeper)\n", embedded.err());
  }

  @Test
  void grantNamesTheRolesAndRefusesAClusterThatDoesNotCheckPermissions() {
    DatasetId id = MiniCluster.uniqueDataset("grant");
    MiniCluster.get().datasets().create(id, DatasetProperties.defaults());
    Cli.Result badRole = Cli.run("grant", id.toString(), "alice", "superuser");
    assertEquals(ExitCodes.USAGE, badRole.exitCode(), badRole.toString());
    assertTrue(badRole.err().contains("unknown role 'superuser': use reader, writer or admin"), badRole.toString());

    Cli.Result open = Cli.run("grant", id.toString(), "alice", "reader");
    assertEquals(ExitCodes.FAILED, open.exitCode(), open.toString());
    assertEquals("snapds: HBase does not check permissions on this cluster (authorization is off, no AccessController):"
        + " roles on dataset " + id + " would have no effect; see docs/security.md\n", open.err());
    Cli.Result list = Cli.run("permissions", id.toString());
    assertEquals(ExitCodes.FAILED, list.exitCode(), list.toString());
    Cli.Result missing = Cli.run("revoke", MiniCluster.uniqueDataset("nope").toString(), "alice");
    assertEquals(ExitCodes.NOT_FOUND, missing.exitCode(), missing.toString());
  }

  @Test
  void badInputFilesPublishNothing() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("fuzzload");
    SnapshotDataset ds = MiniCluster.get().datasets().create(id, DatasetProperties.defaults());
    SnapshotInfo before;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("before"));
      before = w.commit();
    }
    Fuzz fuzz = Fuzz.seeded(1822);
    List<String> bad = List.of("id,a\n1,x\n2,\"unterminated\n", "id,a\n1,x\n2\n", "id,a\n1,\"x\"y\u0000\n",
        "{\"id\":\"1\",\"a\":1}\n{\"id\":\"2\",\"a\":" + "[".repeat(2000) + "\n", "{\"id\":\"1\"}\n[1,2]\n");
    for (int i = 0; i < bad.size(); i++) {
      String text = bad.get(i);
      String ext = text.startsWith("{") ? ".jsonl" : ".csv";
      // a good prefix of random rows, then the bad tail: the rows before it must not be published
      StringBuilder file = new StringBuilder();
      if (ext.equals(".csv")) {
        file.append("id,a\n");
        for (int r = 0; r < fuzz.between(1, 50); r++) {
          file.append("g").append(r).append(",").append(fuzz.between(0, 1000)).append('\n');
        }
        file.append(text.substring(text.indexOf('\n') + 1));
      } else {
        for (int r = 0; r < fuzz.between(1, 50); r++) {
          file.append("{\"id\":\"g").append(r).append("\",\"a\":").append(fuzz.between(0, 1000)).append("}\n");
        }
        file.append(text);
      }
      Path f = Files.write(dir.resolve("bad" + i + ext), file.toString().getBytes(StandardCharsets.UTF_8));
      Cli.Result r = Cli.run("load", id.toString(), f.toString(), "--key", "id");
      assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), "file " + i + ": " + r);
      assertTrue(r.err().startsWith("snapds: ") && r.err().contains("line "), r.toString());
      assertEquals(before.id(), ds.currentSnapshot().orElseThrow().id(), "file " + i + " published nothing");
    }
  }
}
