package io.snapds.cli;

import io.snapds.dataset.CleanupListener;
import io.snapds.dataset.SnapshotId;
import java.io.PrintWriter;

/**
 * {@code snapds gc}'s progress on stderr, per snapshot whose rows it deletes: the regions (pieces)
 * done of those this run deletes, and the rows so far. On a terminal one bar per snapshot that
 * redraws itself; otherwise ({@code --progress} into a file or a pipe) a line per region done.
 */
final class CleanupProgressBar implements CleanupListener {
  static final int WIDTH = 30;

  private final PrintWriter err;
  private final boolean terminal;

  CleanupProgressBar(PrintWriter err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  @Override
  public void started(SnapshotId snapshot, int pieces, int rangesDoneBefore) {
    if (pieces > 0 && rangesDoneBefore > 0) {
      err.printf("snapshot %s: resuming an interrupted cleanup, %d regions left%n", snapshot, pieces);
    }
    if (pieces > 0) {
      show(snapshot, 0, 0, pieces);
    }
  }

  @Override
  public void progress(SnapshotId snapshot, long rowsDeleted, int piecesDone, int pieces) {
    show(snapshot, rowsDeleted, piecesDone, pieces);
  }

  private void show(SnapshotId snapshot, long rows, int done, int pieces) {
    String counts = String.format("%d/%d regions, %,d rows deleted", done, pieces, rows);
    if (terminal) {
      int filled = (int) ((long) WIDTH * done / pieces);
      err.print("\rsnapshot " + snapshot + ": [" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] " + counts);
      if (done == pieces) {
        err.println();
      }
    } else {
      err.println("snapshot " + snapshot + ": " + counts);
    }
    err.flush();
  }
}
