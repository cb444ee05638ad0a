package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.ExpireSnapshots;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "expire", mixinStandardHelpOptions = true,
    description = {"Expire snapshots: new readers no longer see them at once; 'gc' removes their rows",
        "once no reader can. The current and tagged snapshots are never expired."})
final class ExpireCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Option(names = "--snapshot", paramLabel = "ID", description = "Expire this snapshot (repeatable).")
  List<SnapshotId> snapshots = List.of();

  @Option(names = "--older-than", paramLabel = "TIME",
      description = "Expire snapshots committed before TIME (2026-11-30T10:00:00Z, 2026-11-30, or 7d for 7 days ago).")
  Instant olderThan;

  @Option(names = "--retain-last", paramLabel = "N",
      description = "With --older-than: keep at least the newest N; alone: keep only those.")
  Integer retainLast;

  @Override
  void validate() {
    if (snapshots.isEmpty() && olderThan == null && retainLast == null) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "say what to expire: --snapshot ID, --older-than TIME and/or --retain-last N");
    }
  }

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      ExpireSnapshots expire = ds.expireSnapshots();
      for (SnapshotId id : snapshots) {
        expire = expire.expire(id);
      }
      if (olderThan != null) {
        expire = expire.olderThan(olderThan);
      }
      if (retainLast != null) {
        expire = expire.retainLast(retainLast);
      }
      List<SnapshotInfo> expired = expire.commit();
      if (expired.isEmpty()) {
        out().printf("dataset %s: nothing to expire%n", dataset);
      } else {
        out().printf("dataset %s: expired %s (run 'snapds gc %s' to remove their rows)%n", dataset,
            expired.stream().map(s -> s.id().toString()).toList(), dataset);
      }
    }
    out().flush();
    return ExitCodes.OK;
  }
}
