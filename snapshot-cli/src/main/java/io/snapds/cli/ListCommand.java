package io.snapds.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.snapds.cli.env.Environment;
import io.snapds.cli.output.Formats;
import io.snapds.cli.output.Json;
import io.snapds.cli.output.TextTable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.SnapshotInfo;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", mixinStandardHelpOptions = true,
    description = "List datasets with their current snapshot.")
final class ListCommand extends EnvCommand {
  @Option(names = "--json", description = "One JSON array instead of a table.")
  boolean json;

  @Override
  int run(Environment env) {
    List<DatasetId> ids = env.datasets().list();
    TextTable table = new TextTable("DATASET", "CURRENT", "COMMITTED AT", "ROWS", "RETAINED");
    ArrayNode array = Json.MAPPER.createArrayNode();
    for (DatasetId id : ids) {
      Optional<SnapshotInfo> current;
      int retained;
      try (SnapshotDataset ds = env.datasets().open(id)) {
        current = ds.currentSnapshot();
        retained = ds.retainedSnapshots().size();
      } catch (SnapshotDatasetException e) {
        table.row(id, "unreadable: " + e.getMessage(), "", "", "");
        array.addObject().put("dataset", id.toString()).put("error", e.getMessage());
        continue;
      }
      table.row(id, current.map(s -> s.id().toString()).orElse("-"),
          current.map(s -> Formats.time(s.committedAt())).orElse("-"),
          current.map(s -> Long.toString(s.rowCount())).orElse("-"), retained);
      var node = array.addObject().put("dataset", id.toString()).put("retained", retained);
      current.ifPresentOrElse(s -> node.put("current", s.id().value()), () -> node.putNull("current"));
    }
    if (json) {
      Json.println(out(), array);
    } else if (ids.isEmpty()) {
      out().println("no datasets (create one with: snapds create NAMESPACE:NAME)");
    } else {
      table.print(out());
    }
    out().flush();
    return ExitCodes.OK;
  }
}
