package io.snapds.cli.output;

import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.SchemaRecord;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes rows as they come: a table for people, or JSON Lines ({@code --json}). Rows of a
 * snapshot with a schema are decoded with it and printed as typed fields ({@link ValueText});
 * others as bytes.
 */
public interface RowPrinter {
  void print(SnapshotRow row);

  /** Writes what is still buffered; returns the number of rows printed. */
  long finish();

  static RowPrinter of(PrintWriter out, boolean json) {
    return json ? new JsonRowPrinter(out, Json::row) : new TableRowPrinter(out);
  }

  /** Rows decoded with {@code codec} (the snapshot's schema) when present, raw otherwise. */
  static RowPrinter of(PrintWriter out, boolean json, Optional<RowCodec> codec) {
    if (codec.isEmpty()) {
      return of(out, json);
    }
    RowCodec c = codec.get();
    if (json) {
      return new JsonRowPrinter(out, row -> Json.record(c.decode(row)));
    }
    List<String> names = c.schema().fields().stream().map(Field::name).toList();
    return new TableRowPrinter(out, names, row -> {
      SchemaRecord r = c.decode(row);
      Map<String, String> cells = new LinkedHashMap<>();
      for (Field f : r.schema().fields()) {
        Object v = r.get(f.name());
        cells.put(f.name(), v == null ? "" : ValueText.text(f, v));
      }
      return cells;
    });
  }
}
