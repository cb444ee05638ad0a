package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.output.Formats;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.ManageTags;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "tag", mixinStandardHelpOptions = true,
    description = "Tag a snapshot (a tagged snapshot is never expired; a tag names one snapshot).")
final class TagCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1", paramLabel = "ID", description = "The snapshot.")
  SnapshotId snapshot;

  @Parameters(index = "2..*", arity = "1..*", paramLabel = "TAG", description = "Tag names.")
  List<String> tags;

  @Option(names = "--remove", description = "Remove the tags instead of adding them.")
  boolean remove;

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      ManageTags change = ds.manageTags(snapshot);
      for (String t : tags) {
        change = remove ? change.untag(t) : change.tag(t);
      }
      SnapshotInfo s = change.commit();
      out().printf("snapshot %s of %s: tags %s%n", s.id(), dataset, Formats.tags(s));
    }
    out().flush();
    return ExitCodes.OK;
  }
}
