package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.output.Formats;
import io.snapds.cli.output.Json;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "show", mixinStandardHelpOptions = true,
    description = "Everything recorded of one snapshot (the current one without ID).")
final class ShowCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1", arity = "0..1", paramLabel = "ID", description = "Snapshot id (default: current).")
  SnapshotId snapshot;

  @Option(names = "--json", description = "One JSON object.")
  boolean json;

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      Optional<SnapshotId> current = ds.currentSnapshot().map(SnapshotInfo::id);
      SnapshotInfo s = snapshot != null ? ds.snapshot(snapshot) : ds.currentSnapshot()
          .orElseThrow(() -> new SnapshotNotAvailableException(dataset, "dataset " + dataset + " has no snapshot yet"));
      boolean isCurrent = current.equals(Optional.of(s.id()));
      if (json) {
        Json.println(out(), Json.snapshot(s, isCurrent));
      } else {
        print(out(), s, isCurrent);
      }
    }
    out().flush();
    return ExitCodes.OK;
  }

  private static void print(PrintWriter out, SnapshotInfo s, boolean current) {
    out.printf("snapshot     %s%s%n", s.id(), current ? " (current)" : "");
    out.printf("state        %s%n", s.state());
    out.printf("created at   %s%n", Formats.time(s.createdAt()));
    s.stagedAt().ifPresent(t -> out.printf("staged at    %s%s%n", Formats.time(t), s.discarded() ? " (discarded)"
        : s.state() == io.snapds.dataset.SnapshotState.STAGED ? " (waiting for audit)" : ""));
    out.printf("committed at %s%n", Formats.time(s.committedAt()));
    out.printf("rows         %d%n", s.rowCount());
    out.printf("bytes        %d (%s)%n", s.byteCount(), Formats.bytes(s.byteCount()));
    out.printf("writer       %s%n", s.writer());
    out.printf("run id       %s%n", Formats.orDash(s.runId()));
    out.printf("source key   %s%n", Formats.orDash(s.sourceKey()));
    out.printf("parent       %s%n", s.parentId().map(Object::toString).orElse("-"));
    s.group().ifPresent(g -> out.printf("group        %s%n", g));
    out.printf("tags         %s%n", Formats.tags(s));
    s.cleanedAt().ifPresent(t -> out.printf("cleaned at   %s%n", Formats.time(t)));
    s.summary().forEach((k, v) -> out.printf("summary      %s = %s%n", k, v));
  }
}
