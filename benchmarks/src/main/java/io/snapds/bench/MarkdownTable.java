package io.snapds.bench;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.ArrayList;
import java.util.List;

/** A markdown table: a header and rows of the same width. */
final class MarkdownTable {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  MarkdownTable(String... header) {
    checkArgument(header.length > 0, "a table needs columns");
    this.header = List.of(header);
  }

  MarkdownTable row(String... cells) {
    checkArgument(cells.length == header.size(), "row has %s cells, the table %s columns: %s",
        cells.length, header.size(), List.of(cells));
    rows.add(List.of(cells));
    return this;
  }

  String render() {
    StringBuilder out = new StringBuilder();
    line(out, header);
    out.append('|');
    header.forEach(h -> out.append(" --- |"));
    out.append('\n');
    rows.forEach(r -> line(out, r));
    return out.toString();
  }

  private static void line(StringBuilder out, List<String> cells) {
    out.append('|');
    cells.forEach(c -> out.append(' ').append(c.replace("|", "\\|")).append(" |"));
    out.append('\n');
  }
}
