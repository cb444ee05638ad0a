package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "rollback", mixinStandardHelpOptions = true,
    description = "Make a retained snapshot current again (newer ones stay retained).")
final class RollbackCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1", paramLabel = "ID", description = "The snapshot to make current.")
  SnapshotId snapshot;

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      String before = ds.currentSnapshot().map(s -> s.id().toString()).orElse("none");
      SnapshotInfo now = ds.rollbackTo(snapshot).commit();
      out().printf("dataset %s: current snapshot is now %s (was %s)%n", dataset, now.id(), before);
    }
    out().flush();
    return ExitCodes.OK;
  }
}
