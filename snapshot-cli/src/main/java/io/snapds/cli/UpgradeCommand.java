package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "upgrade", mixinStandardHelpOptions = true,
    description = "Upgrade a dataset's tables and metadata format in place, keeping every snapshot, "
        + "history entry, tag and run id. Safe to run again.")
final class UpgradeCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Override
  int run(Environment env) {
    int was = existingAdmin(env, dataset).upgrade();
    int now = SnapshotDatasets.formatVersion();
    if (was < now) {
      out().printf("upgraded dataset %s from metadata format %d to %d%n", dataset, was, now);
    } else {
      out().printf("dataset %s is at metadata format %d already; tables checked%n", dataset, now);
    }
    return ExitCodes.OK;
  }
}
