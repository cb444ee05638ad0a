package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.PublishGroup;
import io.snapds.dataset.PublishMode;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.StagedBaseMovedException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "publish", mixinStandardHelpOptions = true,
    description = {"Make staged snapshots ('snapds load --stage') current: write, audit, publish.",
        "One DATASET@ID publishes that snapshot; several publish them together, in one transaction: every one "
            + "becomes current or none does, and a reader of several of them never sees a mix.",
        "A staged snapshot is published only if the snapshot current when it was staged is still current "
            + "(--replace publishes it anyway). Publishing one published already changes nothing."})
final class PublishCommand extends EnvCommand {
  @Parameters(arity = "1..*", paramLabel = "DATASET@ID", converter = StagedRef.Converter.class,
      description = "A staged snapshot: namespace:name@id (one per dataset).")
  List<StagedRef> snapshots;

  @Option(names = "--replace",
      description = "Publish even if another snapshot was made current since the stage (it stops being current).")
  boolean replace;

  @Option(names = "--group", paramLabel = "NAME",
      description = "The publish group's name, recorded in each dataset's history ('rollback --group NAME' "
          + "moves them all back); default: a generated one when several are published.")
  String group;

  @Override
  void validate() {
    Set<DatasetId> seen = new HashSet<>();
    for (StagedRef s : snapshots) {
      if (!seen.add(s.dataset())) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "dataset " + s.dataset()
            + " is given twice (" + s + "): a publish makes one snapshot of each dataset current");
      }
    }
  }

  @Override
  int run(Environment env) {
    SnapshotDatasets datasets = env.datasets();
    PublishMode mode = replace ? PublishMode.REPLACE_CURRENT : PublishMode.BASE_UNCHANGED;
    List<SnapshotDataset> opened = new ArrayList<>();
    try {
      Map<StagedRef, Optional<SnapshotId>> before = new LinkedHashMap<>();
      Map<StagedRef, SnapshotInfo> was = new LinkedHashMap<>();
      for (StagedRef s : snapshots) {
        SnapshotDataset ds = datasets.open(s.dataset());
        opened.add(ds);
        before.put(s, ds.currentSnapshot().map(SnapshotInfo::id));
        was.put(s, ds.snapshot(s.snapshot()));
      }
      if (group == null && snapshots.size() > 1) {
        group = retriedGroup(was.values()).orElse(null);
      }
      Map<DatasetId, SnapshotInfo> published = new LinkedHashMap<>();
      try {
        if (snapshots.size() == 1 && group == null) {
          published.put(snapshots.get(0).dataset(), opened.get(0).publish(snapshots.get(0).snapshot(), mode));
        } else {
          PublishGroup together = datasets.publishTogether().mode(mode);
          if (group != null) {
            together.id(group);
          }
          for (int i = 0; i < snapshots.size(); i++) {
            together.staged(opened.get(i), snapshots.get(i).snapshot());
          }
          group = together.id();
          published.putAll(together.publish());
        }
      } catch (StagedBaseMovedException e) {
        throw baseMoved(e);
      }
      if (snapshots.size() > 1 || group != null) {
        out().printf("publish group %s: %d dataset%s current together%n", group, snapshots.size(),
            snapshots.size() == 1 ? "" : "s");
      }
      for (StagedRef s : snapshots) {
        SnapshotInfo now = published.get(s.dataset());
        if (was.get(s).committedAt().isPresent()) {
          out().printf("dataset %s: snapshot %s was published already; nothing changed%n", s.dataset(), now.id());
        } else {
          out().printf("dataset %s: current snapshot is now %s, %,d rows (was %s)%n", s.dataset(), now.id(),
              now.rowCount(), before.get(s).map(Object::toString).orElse("none"));
        }
      }
    } finally {
      opened.forEach(SnapshotDataset::close);
    }
    out().flush();
    return ExitCodes.OK;
  }

  /**
   * A publish without --group retried after it succeeded: every member was published already,
   * with one group, whose id the retry takes so that it changes nothing (a group refuses a member
   * published apart from it, and a retry would otherwise get a new generated id).
   */
  private static Optional<String> retriedGroup(java.util.Collection<SnapshotInfo> members) {
    Set<Optional<String>> groups = new HashSet<>();
    for (SnapshotInfo s : members) {
      if (s.committedAt().isEmpty()) {
        return Optional.empty();
      }
      groups.add(s.group());
    }
    return groups.size() == 1 ? groups.iterator().next() : Optional.empty();
  }

  private UserException baseMoved(StagedBaseMovedException e) {
    StagedRef ref = snapshots.stream().filter(s -> s.snapshot().equals(e.staged())).findFirst()
        .orElse(snapshots.get(0));
    return new UserException(ExitCodes.FAILED, "cannot publish staged snapshot " + ref + ": it was staged on "
        + e.base().map(b -> "snapshot " + b).orElse("no current snapshot") + ", but the current snapshot is now "
        + e.current().map(Object::toString).orElse("none") + "; nothing was published. Audit it against the current"
        + " one, then publish it anyway with 'snapds publish " + String.join(" ", snapshots.stream()
        .map(StagedRef::toString).toList()) + " --replace', or load it again, or drop it with 'snapds discard "
        + ref + "'", e);
  }
}
