package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.output.DatasetReport;
import io.snapds.cli.output.Formats;
import io.snapds.cli.output.Json;
import io.snapds.cli.output.TextTable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetStatus;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.lock.LockStatus;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "status", mixinStandardHelpOptions = true,
    description = {"Show what each dataset is doing: its current snapshot and the age of the last publish, "
        + "snapshots being built and whether their writers live, staged snapshots waiting for their audit, "
        + "locks and waiters, and snapshots waiting "
        + "for cleanup with what holds them, and each relay's undelivered outbox events.",
        "Exit code 8 when something needs a repair or a person (listed under ATTENTION)."})
final class StatusCommand extends EnvCommand {
  @Parameters(paramLabel = "DATASET", arity = "0..*", description = "namespace:name (default: every dataset)")
  List<DatasetId> datasets;

  @Option(names = "--stale", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
      description = "How long a snapshot may wait for its readers before that needs attention (default: 1h).")
  Duration stale = Duration.ofHours(1);

  @Option(names = "--json", description = "One JSON object per dataset, one per line.")
  boolean json;

  @Override
  int run(Environment env) {
    List<DatasetId> ids = datasets == null || datasets.isEmpty() ? env.datasets().list() : datasets;
    boolean attention = false;
    for (DatasetId id : ids) {
      DatasetReport.Status report;
      try (SnapshotDataset ds = env.datasets().open(id)) {
        report = DatasetReport.status(ds, stale);
      } catch (SnapshotDatasetException e) {
        if (datasets != null && !datasets.isEmpty()) {
          throw e; // asked for by name: its error says what is wrong, with its exit code
        }
        attention = true;
        print(id, e);
        continue;
      }
      attention |= !report.attention().isEmpty();
      if (json) {
        Json.println(out(), DatasetReport.toJson(report));
      } else {
        print(report.status(), report.attention());
      }
    }
    if (ids.isEmpty() && !json) {
      out().println("no datasets (create one with: snapds create NAMESPACE:NAME)");
    }
    out().flush();
    return attention ? ExitCodes.ATTENTION : ExitCodes.OK;
  }

  private void print(DatasetId id, SnapshotDatasetException e) {
    if (json) {
      Json.println(out(), Json.MAPPER.createObjectNode().put("dataset", id.toString()).put("error", e.getMessage()));
    } else {
      out().printf("%s%n  unreadable: %s%n%n", id, e.getMessage());
    }
  }

  private void print(DatasetStatus s, List<String> found) {
    out().println(s.dataset());
    out().printf("  current:   %s%n", s.current().map(c -> c.id() + ", " + c.rowCount() + " rows, published "
        + Formats.time(c.committedAt()) + " (" + age(s.sinceLastPublish().orElse(Duration.ZERO)) + " ago)")
        .orElse("none published"));
    if (!s.building().isEmpty()) {
      TextTable t = new TextTable("BUILDING", "LOCK", "WRITER", "STARTED", "WRITER ALIVE");
      s.building().forEach(b -> t.row(b.snapshot().id(), b.lockName(), b.snapshot().writer(),
          Formats.time(b.snapshot().createdAt()), b.writerAlive() ? "yes"
              : !b.transactionOpen() ? "no (transaction ended)" : "no (lease not held)"));
      t.print(out(), "  ");
    }
    if (!s.staged().isEmpty()) {
      TextTable t = new TextTable("WAITING FOR AUDIT", "STAGED AT", "ROWS", "STAGED ON", "RUN ID", "PUBLISH WITH");
      s.staged().forEach(x -> t.row(x.id(), Formats.time(x.stagedAt().orElse(x.createdAt())), x.rowCount(),
          x.parentId().map(Object::toString).orElse("-"), Formats.orDash(x.runId()),
          "snapds publish " + new StagedRef(s.dataset(), x.id())));
      t.print(out(), "  ");
    }
    if (!s.locks().isEmpty()) {
      TextTable t = new TextTable("LOCK", "HOLDER", "TOKEN", "LEASE UNTIL", "WAITERS");
      for (LockStatus l : s.locks()) {
        t.row(l.lockName(), l.lease().map(x -> x.owner() + (x.isExpired(s.at()) ? " (expired)" : "")).orElse("-"),
            l.lastToken(), l.lease().map(x -> Formats.time(x.expiresAt())).orElse("-"), l.waiters());
      }
      t.print(out(), "  ");
    }
    if (!s.awaitingCleanup().isEmpty()) {
      TextTable t = new TextTable("AWAITING CLEANUP", "STATE", "WAITS FOR");
      s.awaitingCleanup().forEach(b -> t.row(b.snapshot().id(), b.snapshot().state(), DatasetReport.waitsFor(b)));
      t.print(out(), "  ");
    }
    out().printf("  events:    last sequence %d%n", s.lastEventSequence());
    if (!s.deliveries().isEmpty()) {
      TextTable t = new TextTable("RELAY", "DELIVERED UP TO", "UNDELIVERED", "BEHIND WINDOW");
      s.deliveries().forEach(d -> t.row(d.name(), d.position(), d.undelivered(),
          d.behindWindow() ? "yes (events " + (d.position() + 1) + ".." + (d.oldestRetained() - 1) + " pruned)" : "no"));
      t.print(out(), "  ");
    }
    if (!found.isEmpty()) {
      out().println("  ATTENTION:");
      found.forEach(a -> out().println("    " + a));
    }
    out().println();
  }

  private static String age(Duration d) {
    long s = d.toSeconds();
    return s < 120 ? s + " s" : s < 7200 ? s / 60 + " min" : s < 172800 ? s / 3600 + " h" : s / 86400 + " days";
  }
}
