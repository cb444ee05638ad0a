package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "drop", mixinStandardHelpOptions = true,
    description = "Drop a dataset: its tables and every snapshot in them.")
final class DropCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Override
  int run(Environment env) {
    existingAdmin(env, dataset).drop();
    out().printf("dropped dataset %s%n", dataset);
    return ExitCodes.OK;
  }
}
