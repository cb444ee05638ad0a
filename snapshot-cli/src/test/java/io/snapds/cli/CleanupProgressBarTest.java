package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.SnapshotId;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** gc's progress output, without a cluster: a redrawn bar on a terminal, lines otherwise. */
class CleanupProgressBarTest {
  private static final SnapshotId ID = SnapshotId.of(7);

  @Test
  void onATerminalTheBarRedrawsItselfAndEndsItsLine() {
    StringWriter out = new StringWriter();
    CleanupProgressBar bar = new CleanupProgressBar(new PrintWriter(out), true);
    bar.started(ID, 4, 0);
    bar.progress(ID, 1500, 1, 4);
    bar.progress(ID, 6000, 4, 4);
    String empty = " ".repeat(CleanupProgressBar.WIDTH);
    String quarter = "#".repeat(7) + " ".repeat(CleanupProgressBar.WIDTH - 7);
    String full = "#".repeat(CleanupProgressBar.WIDTH);
    assertEquals("\rsnapshot 7: [" + empty + "] 0/4 regions, 0 rows deleted"
        + "\rsnapshot 7: [" + quarter + "] 1/4 regions, 1,500 rows deleted"
        + "\rsnapshot 7: [" + full + "] 4/4 regions, 6,000 rows deleted" + System.lineSeparator(), out.toString());
  }

  @Test
  void elsewhereEachRegionIsALineAndAResumeSaysSo() {
    StringWriter out = new StringWriter();
    CleanupProgressBar bar = new CleanupProgressBar(new PrintWriter(out), false);
    bar.started(ID, 2, 3);
    bar.progress(ID, 10, 1, 2);
    bar.started(SnapshotId.of(8), 0, 1); // nothing left to delete: nothing to show
    String n = System.lineSeparator();
    assertEquals("snapshot 7: resuming an interrupted cleanup, 2 regions left" + n
        + "snapshot 7: 0/2 regions, 0 rows deleted" + n
        + "snapshot 7: 1/2 regions, 10 rows deleted" + n, out.toString());
  }
}
