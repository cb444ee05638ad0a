package io.snapds.cli.output;

import io.snapds.dataset.SnapshotRow;
import java.io.PrintWriter;

/** Writes rows as they come: a table for people, or JSON Lines ({@code --json}). */
public interface RowPrinter {
  void print(SnapshotRow row);

  /** Writes what is still buffered; returns the number of rows printed. */
  long finish();

  static RowPrinter of(PrintWriter out, boolean json) {
    return json ? new JsonRowPrinter(out) : new TableRowPrinter(out);
  }
}
