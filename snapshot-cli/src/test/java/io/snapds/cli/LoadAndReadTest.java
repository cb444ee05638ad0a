package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(MiniClusterExtension.class)
class LoadAndReadTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private Path write(String name, String content) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, content);
    return f;
  }

  private static SnapshotDataset open(DatasetId id) {
    return MiniCluster.get().datasets().open(id);
  }

  @Test
  void loadedCsvIsPublishedAndScannedBackAsTableAndJson() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("load");
    Path csv = write("prices.csv", "id,name,price\n1,apple,1.20\n2,\"banana, ripe\",0.50\n3,cherry,7\n");
    Cli.Result created = Cli.run("create", id.toString(), "--families", "d,x", "--retain-last", "4");
    assertEquals(0, created.exitCode(), created.toString());

    Cli.Result load = Cli.run("load", id.toString(), csv.toString(), "--key", "id", "--run-id", "run-1");
    assertEquals(0, load.exitCode(), load.toString());
    try (SnapshotDataset ds = open(id)) {
      SnapshotInfo current = ds.currentSnapshot().orElseThrow();
      assertEquals(3, current.rowCount());
      assertEquals(Optional.of("run-1"), current.runId());
      SnapshotRow banana = ds.readCurrent().get(Bytes.toBytes("2")).orElseThrow();
      assertEquals("banana, ripe", Bytes.toString(banana.value("d", "name")));
      assertEquals(null, banana.value("d", "id"), "key columns are not written as cells");
      assertTrue(load.out().contains("published snapshot " + current.id()), load.out());
    }

    Cli.Result table = Cli.run("scan", id.toString());
    assertEquals(0, table.exitCode(), table.toString());
    assertEquals(List.of("KEY  d:name        d:price", "1    apple         1.20", "2    banana, ripe  0.50",
        "3    cherry        7"), table.outLines());

    Cli.Result json = Cli.run("scan", id.toString(), "--json", "--limit", "2");
    assertEquals(0, json.exitCode(), json.toString());
    List<JsonNode> rows = new ArrayList<>();
    for (String line : json.outLines()) {
      rows.add(JSON.readTree(line));
    }
    assertEquals(2, rows.size());
    assertEquals("1", rows.get(0).get("key").asText());
    assertEquals("apple", rows.get(0).get("columns").get("d:name").asText());
    assertEquals("0.50", rows.get(1).get("columns").get("d:price").asText());

    Cli.Result get = Cli.run("get", id.toString(), "3", "9", "--json");
    assertEquals(ExitCodes.NOT_FOUND, get.exitCode(), get.toString());
    assertEquals("cherry", JSON.readTree(get.outLines().get(0)).get("columns").get("d:name").asText());
    assertTrue(get.err().contains("not in snapshot") && get.err().contains("9"), get.err());

    // the same run id again publishes nothing
    Cli.Result again = Cli.run("load", id.toString(), csv.toString(), "--key", "id", "--run-id", "run-1");
    assertEquals(0, again.exitCode(), again.toString());
    assertTrue(again.out().contains("published already"), again.out());
    try (SnapshotDataset ds = open(id)) {
      assertEquals(1, ds.retainedSnapshots().size());
    }
  }

  @Test
  void jsonLinesWithCompositeKeysAndReadsByIdAndTime() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("jsonl");
    assertEquals(0, Cli.run("create", id.toString()).exitCode());
    Path v1 = write("v1.jsonl", "{\"region\":\"eu\",\"sku\":\"a\",\"qty\":3,\"tags\":[\"x\"]}\n\n"
        + "{\"region\":\"us\",\"sku\":\"a\",\"qty\":5,\"note\":null}\n");
    Path v2 = write("v2.jsonl", "{\"region\":\"eu\",\"sku\":\"a\",\"qty\":4}\n");
    assertEquals(0, Cli.run("load", id.toString(), v1.toString(), "-k", "region,sku", "--source-key", "day-1").exitCode());
    SnapshotInfo first;
    try (SnapshotDataset ds = open(id)) {
      first = ds.currentSnapshot().orElseThrow();
      SnapshotRow us = ds.readCurrent().get(Bytes.toBytes("us|a")).orElseThrow();
      assertEquals("5", Bytes.toString(us.value("d", "qty")));
      assertEquals(1, us.columnCount(), "null fields write no cell");
      SnapshotRow eu = ds.readCurrent().get(Bytes.toBytes("eu|a")).orElseThrow();
      assertEquals("[\"x\"]", Bytes.toString(eu.value("d", "tags")));
    }
    Thread.sleep(5); // the second publish gets a later time than the as-of below
    java.time.Instant between = java.time.Instant.now();
    assertEquals(0, Cli.run("load", id.toString(), v2.toString(), "-k", "region,sku").exitCode());

    Cli.Result current = Cli.run("scan", id.toString(), "--json");
    assertEquals(1, current.outLines().size(), current.toString());
    Cli.Result byId = Cli.run("scan", id.toString(), "--json", "--snapshot", first.id().toString());
    assertEquals(2, byId.outLines().size(), byId.toString());
    Cli.Result asOf = Cli.run("scan", id.toString(), "--json", "--as-of", between.toString());
    assertEquals(byId.out(), asOf.out());

    Cli.Result history = Cli.run("history", id.toString(), "--json");
    JsonNode snapshots = JSON.readTree(history.out());
    assertEquals(2, snapshots.size());
    assertTrue(snapshots.get(0).get("current").asBoolean());
    assertEquals("day-1", snapshots.get(1).get("sourceKey").asText());
    assertFalse(snapshots.get(1).get("current").asBoolean());
  }

  @Test
  void badCsvLineFailsWithItsNumberAndPublishesNothing() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("badcsv");
    assertEquals(0, Cli.run("create", id.toString()).exitCode());
    StringBuilder content = new StringBuilder("id,price\n");
    for (int i = 0; i < 2000; i++) {
      content.append(i).append(',').append(i * 2).append('\n');
    }
    content.append("2000,1,extra\n"); // line 2002
    Path bad = write("bad.csv", content.toString());

    Cli.Result r = Cli.run("load", id.toString(), bad.toString(), "--key", "id");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.toString());
    assertEquals(bad + " line 2002: expected 2 fields [id, price], got 3; nothing was published\n",
        r.err().replace("snapds: ", ""));
    try (SnapshotDataset ds = open(id)) {
      assertEquals(Optional.empty(), ds.currentSnapshot());
      assertTrue(ds.retainedSnapshots().isEmpty());
    }

    Path quote = write("quote.csv", "id,price\n1,2\n2,\"unterminated\n");
    Cli.Result q = Cli.run("load", id.toString(), quote.toString(), "--key", "id");
    assertEquals(ExitCodes.BAD_INPUT, q.exitCode(), q.toString());
    assertTrue(q.err().contains("line 3: malformed CSV"), q.err());

    Path emptyKey = write("emptykey.jsonl", "{\"id\":\"1\",\"v\":1}\n{\"id\":\"\",\"v\":2}\n");
    Cli.Result k = Cli.run("load", id.toString(), emptyKey.toString(), "--key", "id");
    assertEquals(ExitCodes.BAD_INPUT, k.exitCode(), k.toString());
    assertTrue(k.err().contains("line 2: empty key column 'id'"), k.err());
    try (SnapshotDataset ds = open(id)) {
      assertEquals(Optional.empty(), ds.currentSnapshot());
    }
  }
}
