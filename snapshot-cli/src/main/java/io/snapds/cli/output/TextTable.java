package io.snapds.cli.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain text table: a header and rows, columns padded to their widest cell. */
public final class TextTable {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  public TextTable(String... header) {
    this.header = List.of(header);
  }

  public TextTable row(Object... cells) {
    List<String> r = new ArrayList<>();
    for (Object c : cells) {
      r.add(c == null ? "" : c.toString());
    }
    rows.add(r);
    return this;
  }

  public void print(PrintWriter out) {
    print(out, "");
  }

  /** Prints the table with every line starting with {@code indent}. */
  public void print(PrintWriter out, String indent) {
    int[] widths = new int[header.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = header.get(i).length();
      for (List<String> r : rows) {
        widths[i] = Math.max(widths[i], i < r.size() ? r.get(i).length() : 0);
      }
    }
    line(out, indent, header, widths);
    for (List<String> r : rows) {
      line(out, indent, r, widths);
    }
    out.flush();
  }

  private static void line(PrintWriter out, String indent, List<String> cells, int[] widths) {
    StringBuilder sb = new StringBuilder(indent);
    for (int i = 0; i < widths.length; i++) {
      String c = i < cells.size() ? cells.get(i) : "";
      sb.append(c);
      if (i < widths.length - 1) {
        sb.append(" ".repeat(widths[i] - c.length() + 2));
      }
    }
    out.println(sb.toString().stripTrailing());
  }
}
