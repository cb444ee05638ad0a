package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code snapds diff}: what it prints for raw and typed snapshots, {@code --json}, {@code --stat}, bad input. */
@ExtendWith(MiniClusterExtension.class)
class DiffCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** a=1 b=2 c=3, then b=20 (changed), c removed, d=4 added; a unchanged. */
  private static SnapshotInfo[] rawPair(SnapshotDataset ds) {
    SnapshotInfo s1;
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(Bytes.toBytes("a"), "d", "v", Bytes.toBytes("1"));
      w.put(Bytes.toBytes("b"), "d", "v", Bytes.toBytes("2"));
      w.put(Bytes.toBytes("c"), "d", "v", Bytes.toBytes("3"));
      s1 = w.commit();
    }
    ds.manageTags(s1.id()).tag("base").commit();
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      w.put(Bytes.toBytes("a"), "d", "v", Bytes.toBytes("1"));
      w.put(Bytes.toBytes("b"), "d", "v", Bytes.toBytes("20"));
      w.put(Bytes.toBytes("d"), "d", "v", Bytes.toBytes("4"));
      w.put(Bytes.toBytes("d"), "d", "w", Bytes.toBytes("x"));
      return new SnapshotInfo[] {s1, w.commit()};
    }
  }

  @Test
  void printsChangesInKeyOrderAsTextJsonAndCounts() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("diffcli");
    SnapshotInfo[] s;
    try (SnapshotDataset ds = MiniCluster.get().datasets().create(id, io.snapds.dataset.DatasetProperties.defaults())) {
      s = rawPair(ds);
    }
    Cli.Result text = Cli.run("diff", id.toString(), "tag:base", "current");
    assertEquals(0, text.exitCode(), text.toString());
    assertEquals(List.of("~ b  d:v: 2 -> 20", "- c  d:v=3", "+ d  d:v=4  d:w=x"), text.outLines());
    assertTrue(text.err().contains("1 added, 1 removed, 1 changed (snapshot " + s[0].id() + " to " + s[1].id() + ")"),
        text.err());

    Cli.Result progress = Cli.run("diff", id.toString(), "tag:base", "current", "--progress");
    assertEquals(text.outLines(), progress.outLines(), progress.toString());
    assertTrue(progress.err().contains("diff: 100% (6 of 6 rows compared), 3 changes"), progress.err());
    Cli.Result narrowed = Cli.run("diff", id.toString(), "tag:base", "current", "--progress", "--start", "b");
    assertTrue(narrowed.err().contains("diff: 4 rows compared, 3 changes"), "no percentage for a key range: "
        + narrowed.err());
    assertTrue(!text.err().contains("rows compared"), "no progress line off a terminal by default: " + text.err());

    Cli.Result json = Cli.run("diff", id.toString(), s[0].id().toString(), s[1].id().toString(), "--json");
    assertEquals(0, json.exitCode(), json.toString());
    List<JsonNode> lines = new ArrayList<>();
    for (String l : json.outLines()) {
      lines.add(JSON.readTree(l));
    }
    assertEquals(List.of("CHANGED", "REMOVED", "ADDED"), lines.stream().map(n -> n.get("change").asText()).toList());
    assertEquals(List.of("b", "c", "d"), lines.stream().map(n -> n.get("key").asText()).toList());
    assertEquals("2", lines.get(0).get("before").get("columns").get("d:v").asText());
    assertEquals("20", lines.get(0).get("after").get("columns").get("d:v").asText());
    assertTrue(lines.get(1).get("after") == null && lines.get(2).get("before") == null, json.out());

    Cli.Result stat = Cli.run("diff", id.toString(), "tag:base", "current", "--stat");
    assertEquals(List.of("1 added, 1 removed, 1 changed, 1 unchanged (snapshot " + s[0].id() + " to " + s[1].id()
        + ")"), stat.outLines(), stat.toString());
    JsonNode counts = JSON.readTree(Cli.run("diff", id.toString(), "tag:base", "current", "--stat", "--json").out());
    assertEquals(List.of(1, 1, 1, 1), List.of(counts.get("added").asInt(), counts.get("removed").asInt(),
        counts.get("changed").asInt(), counts.get("unchanged").asInt()));

    // keys and columns as scan takes them
    assertEquals(List.of("~ b  d:v: 2 -> 20", "- c  d:v=3"),
        Cli.run("diff", id.toString(), "tag:base", "current", "--stop", "d").outLines());
    assertEquals(List.of("+ d  d:w=x"),
        Cli.run("diff", id.toString(), "tag:base", "current", "--columns", "d:w").outLines());
    assertEquals(List.of(), Cli.run("diff", id.toString(), "current", "current").outLines(), "the same snapshot");
    Cli.Result time = Cli.run("diff", id.toString(), "@" + s[1].committedAt().orElseThrow(), "tag:base");
    assertEquals(List.of("~ b  d:v: 20 -> 2", "+ c  d:v=3", "- d  d:v=4  d:w=x"), time.outLines(), time.toString());
  }

  @Test
  void typedSnapshotsPrintFieldsAndBadSnapshotsSayWhich() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("diffclityped");
    try (SnapshotDataset ds = MiniCluster.get().datasets().create(id, io.snapds.dataset.DatasetProperties.defaults())) {
      ds.setSchema(Schema.parse("id long key, name string, price int"));
      RowCodec codec = new RowCodec(ds.schema().orElseThrow(), "d");
      for (int price : new int[] {5, 7}) {
        try (SnapshotWriter w = ds.newSnapshot().begin()) {
          w.put(codec.encode(Map.of("id", 1L, "name", "apple", "price", price)));
          w.put(codec.encode(Map.of("id", 2L, "name", "pear", "price", 3)));
          SnapshotInfo s = w.commit();
          if (price == 5) {
            ds.manageTags(s.id()).tag("old").commit();
          }
        }
      }
    }
    Cli.Result text = Cli.run("diff", id.toString(), "tag:old", "current");
    assertEquals(List.of("~ 1  price: 5 -> 7"), text.outLines(), text.toString());
    JsonNode change = JSON.readTree(Cli.run("diff", id.toString(), "tag:old", "current", "--json").out());
    assertEquals(7, change.get("after").get("price").asInt());
    assertEquals("apple", change.get("before").get("name").asText());
    assertEquals(List.of(), Cli.run("diff", id.toString(), "tag:old", "current", "--columns", "name").outLines(),
        "only the name compared");

    Cli.Result badForm = Cli.run("diff", id.toString(), "yesterday", "current");
    assertEquals(ExitCodes.USAGE, badForm.exitCode(), badForm.toString());
    assertTrue(badForm.err().contains("'yesterday'"), badForm.err());
    Cli.Result noTag = Cli.run("diff", id.toString(), "tag:nope", "current");
    assertEquals(ExitCodes.NOT_FOUND, noTag.exitCode(), noTag.toString());
    assertTrue(noTag.err().contains("'nope'"), noTag.err());
    Cli.Result noId = Cli.run("diff", id.toString(), "current", "123456789");
    assertEquals(ExitCodes.NOT_FOUND, noId.exitCode(), noId.toString());
    assertTrue(noId.err().contains("123456789"), noId.err());
  }
}
