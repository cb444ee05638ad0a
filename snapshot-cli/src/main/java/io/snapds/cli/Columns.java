package io.snapds.cli;

import io.snapds.dataset.RowScan;
import java.util.List;

/** Parses {@code --columns family[:qualifier],...} into a projection. */
final class Columns {
  private Columns() {}

  static RowScan project(RowScan scan, List<String> columns) {
    RowScan s = scan;
    for (String c : columns) {
      int colon = c.indexOf(':');
      if (c.isBlank() || colon == 0) {
        throw new IllegalArgumentException("invalid column '" + c + "': use FAMILY or FAMILY:QUALIFIER");
      }
      s = colon < 0 ? s.family(c) : s.column(c.substring(0, colon), c.substring(colon + 1));
    }
    return s;
  }
}
