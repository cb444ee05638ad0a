package io.snapds.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import io.snapds.dataset.SnapshotRow;
import java.io.PrintWriter;
import java.util.function.Function;

/**
 * One JSON object per row and line: {@code {"key": "...", "columns": {"d:price": "12.5"}}} for a
 * raw row, {@code {"id": 7, "price": "12.50"}} for a row of a schema.
 */
final class JsonRowPrinter implements RowPrinter {
  private final PrintWriter out;
  private final Function<SnapshotRow, JsonNode> json;
  private long count;

  JsonRowPrinter(PrintWriter out, Function<SnapshotRow, JsonNode> json) {
    this.out = out;
    this.json = json;
  }

  @Override
  public void print(SnapshotRow row) {
    Json.println(out, json.apply(row));
    count++;
  }

  @Override
  public long finish() {
    out.flush();
    return count;
  }
}
