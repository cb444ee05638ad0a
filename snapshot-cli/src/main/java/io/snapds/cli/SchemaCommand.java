package io.snapds.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.snapds.cli.env.Environment;
import io.snapds.cli.output.Json;
import io.snapds.cli.output.TextTable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Schema;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "schema", mixinStandardHelpOptions = true,
    description = {"The dataset's schema: its id, fields and the retained snapshots written with it.",
        "--all: every schema it had, newest first (snapshots are read with the schema they were written with)."})
final class SchemaCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Option(names = "--all", description = "Every schema the dataset had, not only the current one.")
  boolean all;

  @Option(names = "--json", description = "One JSON array of schemas, newest first.")
  boolean json;

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      SortedMap<Integer, Schema> schemas = ds.schemas();
      List<SnapshotInfo> snapshots = ds.snapshots().stream().filter(s -> s.cleanedAt().isEmpty()).toList();
      List<Map.Entry<Integer, Schema>> shown = new ArrayList<>(schemas.entrySet());
      java.util.Collections.reverse(shown);
      if (!all && !shown.isEmpty()) {
        shown = shown.subList(0, 1);
      }
      if (json) {
        ArrayNode array = Json.MAPPER.createArrayNode();
        for (Map.Entry<Integer, Schema> e : shown) {
          ObjectNode node = Json.schema(e.getKey(), e.getValue());
          node.put("current", e.getKey().equals(schemas.lastKey()));
          ArrayNode used = node.putArray("snapshots");
          usedBy(snapshots, e.getKey()).forEach(used::add);
          array.add(node);
        }
        Json.println(out(), array);
      } else if (shown.isEmpty()) {
        out().printf("dataset %s has no schema: its cells are raw bytes%n", dataset);
      } else {
        shown.forEach(e -> print(out(), e.getKey(), e.getValue(), e.getKey().equals(schemas.lastKey()),
            usedBy(snapshots, e.getKey())));
      }
    }
    out().flush();
    return ExitCodes.OK;
  }

  private static List<Long> usedBy(List<SnapshotInfo> snapshots, int schemaId) {
    return snapshots.stream().filter(s -> s.schemaId().equals(java.util.Optional.of(schemaId)))
        .map(s -> s.id().value()).sorted().toList();
  }

  private static void print(PrintWriter out, int id, Schema schema, boolean current, List<Long> snapshots) {
    out.printf("schema %d%s: %s%n", id, current ? " (current)" : "", schema);
    out.printf("  snapshots: %s%n", snapshots.isEmpty() ? "-"
        : String.join(", ", snapshots.stream().map(String::valueOf).toList()));
    TextTable fields = new TextTable("ID", "FIELD", "TYPE", "");
    for (Field f : schema.fields()) {
      fields.row(f.id(), f.name(), f.type(), f.isKey() ? "key" : f.isNullable() ? "" : "not null");
    }
    fields.print(out, "  ");
  }
}
