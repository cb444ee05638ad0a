package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "gc", mixinStandardHelpOptions = true,
    description = {"Clean up: delete the rows of expired and aborted snapshots that no reader can see",
        "any more, and abort snapshots left BUILDING by writers that are gone. Deletes region by region",
        "on the dataset's cleanup.threads; an interrupted gc resumes where it stopped. Progress on stderr."})
final class GcCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Option(names = "--progress", description = "Show the progress (a line per region) even when stderr is not a "
      + "terminal.")
  boolean progress;

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      boolean terminal = System.console() != null;
      CleanupResult r = progress || terminal ? ds.cleanup(new CleanupProgressBar(err(), terminal)) : ds.cleanup();
      out().printf("dataset %s: cleaned %s (%d rows deleted)%n", dataset, r.cleaned(), r.rowsDeleted());
      if (!r.deferred().isEmpty()) {
        out().printf("  deferred %s: a reader may still see them; run gc again later%n", r.deferred());
      }
      if (!r.abortedDeadWriters().isEmpty()) {
        out().printf("  aborted %s: left BUILDING by writers that are gone%n", r.abortedDeadWriters());
      }
    }
    out().flush();
    return ExitCodes.OK;
  }
}
