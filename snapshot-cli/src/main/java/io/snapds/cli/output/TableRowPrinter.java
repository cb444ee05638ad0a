package io.snapds.cli.output;

import io.snapds.dataset.SnapshotRow;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Rows as a table whose columns are those of the first {@value #SAMPLE} rows (widths from them
 * too), so a large scan streams in bounded memory. A later row's column outside the header is
 * appended to its line as {@code family:qualifier=value}.
 */
final class TableRowPrinter implements RowPrinter {
  private static final int SAMPLE = 100;

  private final PrintWriter out;
  private final List<String> fixedColumns;
  private final Function<SnapshotRow, Map<String, String>> cells;
  private final List<Map<String, String>> sample = new ArrayList<>();
  private List<String> columns;
  private int[] widths;
  private long count;

  /** Raw rows: a KEY column, then every {@code family:qualifier} of the sample, sorted. */
  TableRowPrinter(PrintWriter out) {
    this(out, null, TableRowPrinter::cells);
  }

  /**
   * @param fixedColumns the columns in this order (null: KEY and the sample's, sorted)
   * @param cells a row's cells by column name
   */
  TableRowPrinter(PrintWriter out, List<String> fixedColumns, Function<SnapshotRow, Map<String, String>> cells) {
    this.out = out;
    this.fixedColumns = fixedColumns == null ? null : List.copyOf(fixedColumns);
    this.cells = cells;
  }

  @Override
  public void print(SnapshotRow row) {
    Map<String, String> cells = this.cells.apply(row);
    count++;
    if (columns == null) {
      sample.add(cells);
      if (sample.size() == SAMPLE) {
        layout();
      }
    } else {
      line(cells);
    }
  }

  @Override
  public long finish() {
    if (columns == null) {
      if (sample.isEmpty()) {
        out.println("(no rows)");
        out.flush();
        return 0;
      }
      layout();
    }
    out.flush();
    return count;
  }

  private void layout() {
    if (fixedColumns != null) {
      columns = fixedColumns;
    } else {
      TreeSet<String> names = new TreeSet<>();
      sample.forEach(c -> names.addAll(c.keySet()));
      names.remove("KEY");
      columns = new ArrayList<>();
      columns.add("KEY");
      columns.addAll(names);
    }
    widths = new int[columns.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = columns.get(i).length();
      for (Map<String, String> c : sample) {
        widths[i] = Math.max(widths[i], c.getOrDefault(columns.get(i), "").length());
      }
    }
    Map<String, String> header = new LinkedHashMap<>();
    columns.forEach(c -> header.put(c, c));
    line(header);
    sample.forEach(this::line);
    sample.clear();
  }

  private void line(Map<String, String> cells) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < columns.size(); i++) {
      String v = cells.getOrDefault(columns.get(i), "");
      sb.append(v);
      if (i < columns.size() - 1) {
        sb.append(" ".repeat(Math.max(0, widths[i] - v.length()) + 2));
      }
    }
    cells.forEach((k, v) -> {
      if (!columns.contains(k)) {
        sb.append("  ").append(k).append('=').append(v);
      }
    });
    out.println(sb.toString().stripTrailing());
  }

  private static Map<String, String> cells(SnapshotRow row) {
    Map<String, String> cells = new LinkedHashMap<>();
    cells.put("KEY", row.keyAsString());
    row.families().forEach((f, cols) -> cols.forEach((q, v) ->
        cells.put(Bytes.toString(f) + ":" + Bytes.toStringBinary(q), Bytes.toStringBinary(v))));
    return cells;
  }
}
