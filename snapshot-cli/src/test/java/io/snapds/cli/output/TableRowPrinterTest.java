package io.snapds.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.SnapshotRow;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class TableRowPrinterTest {
  private static SnapshotRow row(String key, String... qualifierValues) {
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (int i = 0; i < qualifierValues.length; i += 2) {
      cells.put(Bytes.toBytes(qualifierValues[i]), Bytes.toBytes(qualifierValues[i + 1]));
    }
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    families.put(Bytes.toBytes("d"), cells);
    return new SnapshotRow(Bytes.toBytes(key), families);
  }

  @Test
  void headerComesFromTheFirstRowsAndLaterColumnsAreAppended() {
    StringWriter out = new StringWriter();
    RowPrinter printer = RowPrinter.of(new PrintWriter(out), false);
    for (int i = 0; i < 100; i++) {
      printer.print(row(String.format("k%03d", i), "a", "1"));
    }
    printer.print(row("k100", "a", "2", "b", "\u00e9"));
    assertEquals(101, printer.finish());
    List<String> lines = out.toString().lines().toList();
    assertEquals("KEY   d:a", lines.get(0));
    assertEquals("k000  1", lines.get(1));
    assertEquals("k100  2  d:b=\\xC3\\xA9", lines.get(101));
  }

  @Test
  void noRowsSaysSo() {
    StringWriter out = new StringWriter();
    assertEquals(0, RowPrinter.of(new PrintWriter(out), false).finish());
    assertEquals("(no rows)\n", out.toString());
  }
}
