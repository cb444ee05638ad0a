package io.snapds.cli.output;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;

/**
 * The history table: one line per snapshot, '*' on the current one; a staged snapshot that was
 * discarded shows as DISCARDED (it is EXPIRED, and was never current).
 */
public final class HistoryTable {
  private HistoryTable() {}

  public static void print(PrintWriter out, List<SnapshotInfo> snapshots, Optional<SnapshotId> current) {
    if (snapshots.isEmpty()) {
      out.println("no snapshots yet");
      out.flush();
      return;
    }
    TextTable table = new TextTable("", "ID", "STATE", "COMMITTED AT", "ROWS", "BYTES", "RUN ID",
        "SOURCE KEY", "TAGS");
    for (SnapshotInfo s : snapshots) {
      table.row(current.equals(Optional.of(s.id())) ? "*" : "", s.id(), s.discarded() ? "DISCARDED" : s.state(), Formats.time(s.committedAt()),
          s.rowCount(), Formats.bytes(s.byteCount()), Formats.orDash(s.runId()), Formats.orDash(s.sourceKey()),
          Formats.tags(s));
    }
    table.print(out);
  }
}
