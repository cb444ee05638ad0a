package io.snapds.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.snapds.cli.env.Environment;
import io.snapds.cli.output.Formats;
import io.snapds.cli.output.Json;
import io.snapds.cli.output.HistoryTable;
import io.snapds.cli.output.TextTable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "history", mixinStandardHelpOptions = true,
    description = {"The snapshots of a dataset, newest first; '*' marks the current one.",
        "STAGED ones wait for an audit ('snapds publish' or 'snapds discard'); DISCARDED ones never were current."})
final class HistoryCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Option(names = "--all", description = "Also snapshots that were expired and cleaned up, or aborted.")
  boolean all;

  @Option(names = "--log", description = "Also every change of the current pointer (publishes, rollbacks).")
  boolean log;

  @Option(names = "--json", description = "One JSON array of snapshots instead of a table.")
  boolean json;

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      Optional<SnapshotId> current = ds.currentSnapshot().map(SnapshotInfo::id);
      List<SnapshotInfo> snapshots = ds.snapshots().stream()
          .filter(s -> all || s.cleanedAt().isEmpty()).toList();
      if (json) {
        ArrayNode array = Json.MAPPER.createArrayNode();
        snapshots.forEach(s -> array.add(Json.snapshot(s, current.equals(Optional.of(s.id())))));
        Json.println(out(), array);
        out().flush();
        return ExitCodes.OK;
      }
      HistoryTable.print(out(), snapshots, current);
      if (log) {
        out().println();
        TextTable changes = new TextTable("AT", "CURRENT", "REASON");
        for (HistoryEntry h : ds.history()) {
          changes.row(Formats.time(h.at()), h.snapshot(), h.reason());
        }
        changes.print(out());
      }
    }
    out().flush();
    return ExitCodes.OK;
  }
}
