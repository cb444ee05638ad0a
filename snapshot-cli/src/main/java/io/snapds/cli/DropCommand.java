package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "drop", mixinStandardHelpOptions = true,
    description = {"Drop a dataset: its tables and every snapshot in them.",
        "Writes the DROPPED event first; when a relay or consumer has not delivered it yet, the tables stay "
            + "until it has ('snapds reconcile' deletes them then)."})
final class DropCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Override
  int run(Environment env) {
    io.snapds.dataset.admin.CompositeDatasetAdmin admin = existingAdmin(env, dataset);
    admin.beginDrop();
    java.util.SortedMap<String, Long> waiting = admin.finishDrop();
    if (!waiting.isEmpty()) {
      out().printf("dropping dataset %s: its DROPPED event is written; the tables stay until these delivered "
          + "positions reach it (snapds reconcile deletes them then): %s%n", dataset, waiting);
      return ExitCodes.OK;
    }
    out().printf("dropped dataset %s%n", dataset);
    return ExitCodes.OK;
  }
}
