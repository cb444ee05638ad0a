package io.snapds.hive;

import io.snapds.dataset.testing.GoldenRecords;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The golden records as Hive prints the rows of {@code SELECT <every column, binary as hex(b)>}:
 * tab-separated, NULL for nulls, decimals padded to their scale, timestamps as
 * {@code yyyy-MM-dd HH:mm:ss[.fraction without trailing zeros]}, timestamptz in UTC. Computed from
 * the Java values with java.time alone, independently of the handler's conversions.
 */
final class GoldenHiveFormat {
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private GoldenHiveFormat() {}

  /** The select list that prints every golden column (binary as upper-case hex). */
  static String selectList() {
    List<String> out = new ArrayList<>();
    for (String name : GoldenRecords.names()) {
      out.add(name.equals("b") ? "hex(b)" : name);
    }
    return String.join(", ", out);
  }

  static List<String> rows() {
    List<String> out = new ArrayList<>();
    for (Map<String, Object> r : GoldenRecords.records()) {
      List<String> cells = new ArrayList<>();
      for (String name : GoldenRecords.names()) {
        cells.add(format(r.get(name)));
      }
      out.add(String.join("\t", cells));
    }
    return out;
  }

  static String format(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof byte[] b) {
      return HexFormat.of().withUpperCase().formatHex(b);
    }
    if (v instanceof BigDecimal d) {
      return d.setScale(GoldenRecords.SCALE).toPlainString();
    }
    if (v instanceof LocalDate d) {
      return d.toString();
    }
    if (v instanceof LocalDateTime t) {
      return timestamp(t);
    }
    if (v instanceof Instant t) {
      return timestamp(LocalDateTime.ofInstant(t, ZoneOffset.UTC));
    }
    return v.toString();
  }

  private static String timestamp(LocalDateTime t) {
    String s = t.format(SECONDS);
    if (t.getNano() == 0) {
      return s;
    }
    String fraction = String.format("%09d", t.getNano()).replaceAll("0+$", "");
    return s + "." + fraction;
  }
}
