package io.snapds.cli;

import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Instant;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Which snapshot to read: the current one, or one by id, time or tag (at most one of them). */
final class SnapshotSelection {
  @ArgGroup(exclusive = true)
  Choice choice;

  static final class Choice {
    @Option(names = "--snapshot", paramLabel = "ID", description = "Read this snapshot.")
    SnapshotId snapshot;

    @Option(names = "--as-of", paramLabel = "TIME",
        description = "Read the snapshot current at TIME (2026-11-30T10:00:00Z, local 2026-11-30T10:00, or 2h ago).")
    Instant asOf;

    @Option(names = "--tag", paramLabel = "TAG", description = "Read the snapshot with this tag.")
    String tag;
  }

  /** The choice as the core's one description of a snapshot choice, which every engine uses too. */
  SnapshotSelector selector() {
    if (choice == null) {
      return SnapshotSelector.current();
    }
    if (choice.snapshot != null) {
      return SnapshotSelector.snapshot(choice.snapshot);
    }
    if (choice.asOf != null) {
      return SnapshotSelector.asOf(choice.asOf);
    }
    return SnapshotSelector.tag(choice.tag);
  }

  SnapshotReader reader(SnapshotDataset ds) {
    return selector().reader(ds);
  }
}
