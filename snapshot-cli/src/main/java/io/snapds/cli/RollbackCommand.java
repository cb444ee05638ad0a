package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

@Command(name = "rollback", mixinStandardHelpOptions = true,
    description = {"Make a retained snapshot current again (newer ones stay retained).",
        "With --group NAME DATASET...: move every dataset of a publish group back to the snapshot the group "
            + "replaced, in one transaction (all of them or none)."})
final class RollbackCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "ID|DATASET",
      description = "The snapshot to make current; with --group, the group's other datasets instead.")
  List<String> more = List.of();

  @Option(names = "--group", paramLabel = "NAME",
      description = "Roll back the publish group NAME ('snapds publish --group NAME') in every DATASET given.")
  String group;

  private SnapshotId snapshot;
  private final List<DatasetId> members = new ArrayList<>();

  @Override
  void validate() {
    if (group == null) {
      if (more.size() != 1) {
        throw new ParameterException(spec.commandLine(), more.isEmpty() ? "missing the snapshot ID to make current"
            : "give one snapshot ID (or --group NAME and the group's datasets), not " + more);
      }
      snapshot = SnapshotId.parse(more.get(0));
      return;
    }
    members.add(dataset);
    for (String m : more) {
      if (m.matches("\\d+")) {
        throw new ParameterException(spec.commandLine(), "with --group, give the group's datasets only (the group"
            + " says which snapshot each goes back to), not the snapshot id '" + m + "'");
      }
      DatasetId id = DatasetId.parse(m);
      if (members.contains(id)) {
        throw new ParameterException(spec.commandLine(), "dataset " + id + " is given twice");
      }
      members.add(id);
    }
  }

  @Override
  int run(Environment env) {
    if (group != null) {
      return rollbackGroup(env.datasets());
    }
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      String before = ds.currentSnapshot().map(s -> s.id().toString()).orElse("none");
      SnapshotInfo now = ds.rollbackTo(snapshot).commit();
      out().printf("dataset %s: current snapshot is now %s (was %s)%n", dataset, now.id(), before);
    }
    out().flush();
    return ExitCodes.OK;
  }

  private int rollbackGroup(SnapshotDatasets datasets) {
    List<SnapshotDataset> opened = new ArrayList<>();
    try {
      Map<DatasetId, String> before = new LinkedHashMap<>();
      for (DatasetId id : members) {
        SnapshotDataset ds = datasets.open(id);
        opened.add(ds);
        before.put(id, ds.currentSnapshot().map(s -> s.id().toString()).orElse("none"));
      }
      Map<DatasetId, SnapshotId> back = datasets.rollbackGroup(group, opened.toArray(SnapshotDataset[]::new));
      out().printf("publish group %s rolled back in %d dataset%s together%n", group, back.size(),
          back.size() == 1 ? "" : "s");
      back.forEach((id, now) -> out().printf("dataset %s: current snapshot is now %s (was %s)%n", id, now,
          before.get(id)));
    } finally {
      opened.forEach(SnapshotDataset::close);
    }
    out().flush();
    return ExitCodes.OK;
  }
}
