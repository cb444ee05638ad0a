package io.snapds.cli.output;

import io.snapds.dataset.SnapshotRow;
import java.io.PrintWriter;

/** One JSON object per row and line: {@code {"key": "...", "columns": {"d:price": "12.5"}}}. */
final class JsonRowPrinter implements RowPrinter {
  private final PrintWriter out;
  private long count;

  JsonRowPrinter(PrintWriter out) {
    this.out = out;
  }

  @Override
  public void print(SnapshotRow row) {
    Json.println(out, Json.row(row));
    count++;
  }

  @Override
  public long finish() {
    out.flush();
    return count;
  }
}
