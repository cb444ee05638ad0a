package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.output.Formats;
import io.snapds.cli.output.TextTable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "lock", mixinStandardHelpOptions = true,
    description = "Writer locks of a dataset: the writer lock, and one per source key built.",
    subcommands = {LockCommand.Status.class, LockCommand.Break.class})
final class LockCommand implements Runnable {
  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing command: status or break");
  }

  @Command(name = "status", mixinStandardHelpOptions = true, description = "Who holds which lock, until when.")
  static final class Status extends EnvCommand {
    @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
    DatasetId dataset;

    @Parameters(index = "1", arity = "0..1", paramLabel = "LOCK", description = "One lock (default: all).")
    String lockName;

    @Override
    int run(Environment env) {
      try (SnapshotDataset ds = env.datasets().open(dataset)) {
        List<LockStatus> locks = lockName == null ? ds.lockStatus() : List.of(ds.lockStatus(lockName));
        if (locks.isEmpty()) {
          out().printf("dataset %s: no locks taken yet%n", dataset);
        } else {
          Instant now = Instant.now();
          TextTable table = new TextTable("LOCK", "STATE", "OWNER", "TOKEN", "EXPIRES AT", "WAITERS");
          for (LockStatus s : locks) {
            Optional<LockLease> lease = s.lease();
            table.row(s.lockName(), s.isHeld(now) ? "held" : lease.isPresent() ? "expired" : "free",
                lease.map(LockLease::owner).orElse("-"), s.lastToken(),
                lease.map(l -> Formats.time(l.expiresAt())).orElse("-"), s.waiters());
          }
          table.print(out());
        }
      }
      out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(name = "break", mixinStandardHelpOptions = true,
      description = "Revoke a lock's lease; its holder is fenced and can no longer publish.")
  static final class Break extends EnvCommand {
    @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
    DatasetId dataset;

    @Parameters(index = "1", paramLabel = "LOCK", description = "The lock ('writer', or 'source/KEY').")
    String lockName;

    @Override
    int run(Environment env) {
      try (SnapshotDataset ds = env.datasets().open(dataset)) {
        Optional<LockLease> broken = ds.breakLock(lockName);
        if (broken.isPresent()) {
          out().printf("dataset %s: broke lock %s held by %s (token %d); that writer is fenced%n", dataset,
              lockName, broken.get().owner(), broken.get().token());
        } else {
          out().printf("dataset %s: lock %s was not held%n", dataset, lockName);
        }
      }
      out().flush();
      return ExitCodes.OK;
    }
  }
}
