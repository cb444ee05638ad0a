package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.FencedWriterException;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(MiniClusterExtension.class)
class HistoryOperationsTest {
  @TempDir
  Path dir;

  private SnapshotId load(DatasetId id, String value) throws Exception {
    Path f = dir.resolve(value + ".csv");
    Files.writeString(f, "k,v\na," + value + "\nb," + value + "\n");
    Cli.Result r = Cli.run("load", id.toString(), f.toString(), "-k", "k");
    assertEquals(0, r.exitCode(), r.toString());
    try (SnapshotDataset ds = MiniCluster.get().datasets().open(id)) {
      return ds.currentSnapshot().orElseThrow().id();
    }
  }

  private static SnapshotDataset open(DatasetId id) {
    return MiniCluster.get().datasets().open(id);
  }

  @Test
  void historyMarksCurrentAndRollbackTagExpireGcChangeIt() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("hist");
    assertEquals(0, Cli.run("create", id.toString(), "--retain-last", "5").exitCode());
    SnapshotId v1 = load(id, "one");
    SnapshotId v2 = load(id, "two");
    SnapshotId v3 = load(id, "three");

    Cli.Result history = Cli.run("history", id.toString());
    List<String> lines = history.outLines();
    assertEquals(4, lines.size(), history.toString());
    assertTrue(lines.get(1).startsWith("*  " + v3 + "  COMMITTED"), lines.get(1));
    assertTrue(lines.get(3).startsWith("   " + v1 + "  COMMITTED"), lines.get(3));

    Cli.Result rollback = Cli.run("rollback", id.toString(), v1.toString());
    assertEquals(0, rollback.exitCode(), rollback.toString());
    assertEquals("dataset " + id + ": current snapshot is now " + v1 + " (was " + v3 + ")\n", rollback.out());
    assertTrue(Cli.run("scan", id.toString()).out().contains("one"));
    assertTrue(Cli.run("history", id.toString()).outLines().get(3).startsWith("*  " + v1));

    assertEquals(0, Cli.run("tag", id.toString(), v2.toString(), "keep", "audit").exitCode());
    try (SnapshotDataset ds = open(id)) {
      assertEquals(Set.of("keep", "audit"), ds.snapshot(v2).tags());
    }
    assertTrue(Cli.run("scan", id.toString(), "--tag", "audit").out().contains("two"));

    // keeping the newest one (v3) leaves nothing to expire: v1 is current, v2 tagged
    assertEquals("dataset " + id + ": nothing to expire\n",
        Cli.run("expire", id.toString(), "--retain-last", "1").out());
    Cli.Result expire = Cli.run("expire", id.toString(), "--snapshot", v3.toString());
    assertEquals(0, expire.exitCode(), expire.toString());
    assertTrue(expire.out().contains("expired [" + v3 + "]"), expire.out());
    Cli.Result gone = Cli.run("scan", id.toString(), "--snapshot", v3.toString());
    assertEquals(ExitCodes.NOT_FOUND, gone.exitCode(), gone.toString());
    assertTrue(gone.err().contains(v3 + " of dataset " + id + " is EXPIRED"), gone.err());

    Cli.Result gc = Cli.run("gc", id.toString(), "--progress");
    assertEquals(0, gc.exitCode(), gc.toString());
    assertTrue(gc.out().contains("cleaned [" + v3 + "] (2 rows deleted)"), gc.out());
    // not a terminal: plain lines, one per region done
    assertEquals("snapshot " + v3 + ": 0/1 regions, 0 rows deleted\nsnapshot " + v3 + ": 1/1 regions, 2 rows deleted\n",
        gc.err());
    try (SnapshotDataset ds = open(id)) {
      SnapshotInfo s3 = ds.snapshot(v3);
      assertEquals(SnapshotState.EXPIRED, s3.state());
      assertTrue(s3.cleanedAt().isPresent());
      assertEquals(v1, ds.currentSnapshot().orElseThrow().id());
    }
    // cleaned snapshots leave the default history, --all shows them
    assertEquals(3, Cli.run("history", id.toString()).outLines().size());
    assertEquals(4, Cli.run("history", id.toString(), "--all").outLines().size());

    Cli.Result show = Cli.run("show", id.toString(), v2.toString());
    assertTrue(show.out().contains("tags         audit,keep"), show.out());
    assertTrue(show.out().contains("rows         2"), show.out());
    assertTrue(show.out().contains("summary      source.file = two.csv"), show.out());
  }

  @Test
  void lockStatusShowsTheHolderAndBreakFencesIt() {
    DatasetId id = MiniCluster.uniqueDataset("locks");
    assertEquals(0, Cli.run("create", id.toString()).exitCode());
    assertTrue(Cli.run("lock", "status", id.toString()).out().contains("no locks taken yet"));
    try (SnapshotDataset ds = open(id); SnapshotWriter writer = ds.newSnapshot().owner("nightly-job").begin()) {
      writer.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("x"));

      Cli.Result status = Cli.run("lock", "status", id.toString());
      assertEquals(0, status.exitCode(), status.toString());
      String writerLine = status.outLines().stream().filter(l -> l.startsWith("writer")).findFirst().orElseThrow();
      assertTrue(writerLine.matches("writer\\s+held\\s+nightly-job\\s+1\\s+.*"), writerLine);

      Cli.Result broken = Cli.run("lock", "break", id.toString(), "writer");
      assertEquals(0, broken.exitCode(), broken.toString());
      assertTrue(broken.out().contains("broke lock writer held by nightly-job (token 1)"), broken.out());

      assertThrows(FencedWriterException.class, writer::commit);
      assertTrue(Cli.run("lock", "status", id.toString(), "writer").outLines().get(1)
          .matches("writer\\s+free\\s+-\\s+1\\s+.*"));
    }
    try (SnapshotDataset ds = open(id)) {
      assertTrue(ds.currentSnapshot().isEmpty());
    }
    assertTrue(Cli.run("lock", "break", id.toString(), "writer").out().contains("was not held"));
  }

  @Test
  void listAndDrop() {
    DatasetId id = MiniCluster.uniqueDataset("listed");
    assertEquals(0, Cli.run("create", id.toString()).exitCode());
    assertTrue(Cli.run("list").outLines().stream().anyMatch(l -> l.startsWith(id + " ")));
    assertEquals("dropped dataset " + id + "\n", Cli.run("drop", id.toString()).out());
    assertTrue(Cli.run("list").outLines().stream().noneMatch(l -> l.startsWith(id + " ")));
  }

  @Test
  void statusExitsEightWhileADeadWritersSnapshotWaitsAndZeroAfterReconcileRepairedIt() throws Exception {
    MiniCluster.get().endLeftoverTransactions(); // open writers of earlier tests would count as readers
    DatasetId id = MiniCluster.uniqueDataset("status");
    assertEquals(0, Cli.run("create", id.toString(), "--retain-last", "1").exitCode());
    Cli.Result fresh = Cli.run("status", id.toString());
    assertEquals(0, fresh.exitCode(), fresh.toString());
    assertTrue(fresh.out().contains("current:   none published"), fresh.toString());

    SnapshotId v1 = load(id, "one");
    SnapshotId dead;
    try (SnapshotDataset ds = open(id)) {
      SnapshotWriter writer = ds.newSnapshot().owner("crashed-job").begin();
      dead = writer.snapshotId();
      MiniCluster.get().txClient().invalidate(dead.value()); // the writer's process is gone
    }
    Cli.Result broken = Cli.run("status", id.toString());
    assertEquals(ExitCodes.ATTENTION, broken.exitCode(), broken.toString());
    assertTrue(broken.out().contains("current:   " + v1 + ", 2 rows"), broken.toString());
    assertTrue(broken.outLines().stream().anyMatch(l -> l.trim().startsWith(dead + "  writer")
        && l.contains("crashed-job") && l.endsWith("no (transaction ended)")), broken.toString());
    assertTrue(broken.out().contains("ATTENTION:"), broken.toString());

    Cli.Result json = Cli.run("status", id.toString(), "--json");
    assertEquals(ExitCodes.ATTENTION, json.exitCode());
    com.fasterxml.jackson.databind.JsonNode node = io.snapds.cli.output.Json.MAPPER.readTree(json.out());
    assertEquals(v1.value(), node.get("current").get("id").asLong());
    assertEquals(dead.value(), node.get("building").get(0).get("id").asLong());
    assertEquals(false, node.get("building").get(0).get("transactionOpen").asBoolean());

    Cli.Result reconcile = Cli.run("reconcile", id.toString());
    assertEquals(0, reconcile.exitCode(), reconcile.toString());
    assertTrue(reconcile.out().contains("repaired: aborted snapshot " + dead + " of a writer that is gone"),
        reconcile.toString());
    Cli.Result again = Cli.run("reconcile", id.toString());
    assertEquals(id + ": nothing to do\n", again.out(), again.toString());
    // the log relay delivers the outbox (PUBLISHED, ABORTED, CLEANED, ...) once, then nothing
    Cli.Result relayed = Cli.run("reconcile", id.toString(), "--relay", "log", "--json");
    assertEquals(0, relayed.exitCode(), relayed.toString());
    long events;
    try (SnapshotDataset ds = open(id)) {
      events = ds.status().lastEventSequence();
    }
    assertTrue(events >= 3, "events: " + events);
    com.fasterxml.jackson.databind.JsonNode pass = io.snapds.cli.output.Json.MAPPER.readTree(relayed.out());
    assertEquals(events, pass.get("eventsRelayed").asLong(), relayed.toString());
    assertEquals("log", pass.get("relayed").get(0).get("relay").asText());
    assertEquals(events, pass.get("relayed").get(0).get("toPosition").asLong());
    Cli.Result relayedAgain = Cli.run("reconcile", id.toString(), "--relay", "log");
    assertEquals(id + ": nothing to do\n", relayedAgain.out(), relayedAgain.toString());
    Cli.Result withRelay = Cli.run("status", id.toString());
    assertTrue(withRelay.outLines().stream().anyMatch(l -> l.trim().matches("log +" + events + " +0 +no")),
        withRelay.toString());
    assertEquals(2, Cli.run("reconcile", id.toString(), "--relay", "kafka").exitCode(), "no such sink here");
    Cli.Result repaired = Cli.run("status", id.toString());
    assertEquals(0, repaired.exitCode(), repaired.toString());
    assertTrue(!repaired.out().contains("BUILDING") && !repaired.out().contains("ATTENTION"), repaired.toString());
    try (SnapshotDataset ds = open(id)) {
      assertEquals(SnapshotState.ABORTED, ds.snapshot(dead).state());
    }
  }
}
