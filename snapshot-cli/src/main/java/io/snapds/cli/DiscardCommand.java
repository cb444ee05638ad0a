package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "discard", mixinStandardHelpOptions = true,
    description = {"Drop a staged snapshot that failed its audit: it never becomes current, and 'snapds gc' "
        + "deletes its rows once no reader reads it. Discarding one discarded already changes nothing."})
final class DiscardCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET@ID", converter = StagedRef.Converter.class,
      description = "The staged snapshot: namespace:name@id.")
  StagedRef staged;

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(staged.dataset())) {
      boolean already = ds.snapshot(staged.snapshot()).discarded();
      SnapshotInfo discarded = ds.discard(staged.snapshot());
      if (already) {
        out().printf("dataset %s: staged snapshot %s was discarded already; nothing changed%n", staged.dataset(),
            discarded.id());
      } else {
        out().printf("dataset %s: discarded staged snapshot %s (it was never current; 'snapds gc %s' deletes its"
            + " rows)%n", staged.dataset(), discarded.id(), staged.dataset());
      }
    }
    out().flush();
    return ExitCodes.OK;
  }
}
