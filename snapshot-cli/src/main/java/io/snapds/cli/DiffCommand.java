package io.snapds.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.snapds.cli.env.Environment;
import io.snapds.cli.output.Json;
import io.snapds.cli.output.ValueText;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DiffScanner;
import io.snapds.dataset.DiffSummary;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.hbase.util.Bytes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code snapds diff DATASET FROM TO}: the rows that differ between two snapshots, in key order,
 * streamed as the core's {@link SnapshotDataset#diff} returns them (both snapshots pinned while it
 * runs). Keys and columns are chosen as {@code scan} chooses them.
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
    description = {"Print the rows that differ between two snapshots, in key order: '+' added (only in TO),"
        + " '-' removed (only in FROM), '~' changed (the columns that differ, old -> new).",
        "FROM and TO: 'current', a snapshot id, 'tag:NAME', or '@TIME' (the snapshot current at TIME:"
            + " 2026-11-30T10:00:00Z, local 2026-11-30T10:00, or 2h for two hours ago)."})
final class DiffCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1", paramLabel = "FROM", description = "The older snapshot (see above).")
  String from;

  @Parameters(index = "2", paramLabel = "TO", description = "The newer snapshot (see above).")
  String to;

  @picocli.CommandLine.Mixin
  KeyOptions keys;

  @Option(names = "--columns", split = ",", paramLabel = "FAMILY[:QUALIFIER]",
      description = "Compare only these columns or families (with a schema: field names); a row holding none of"
          + " them is not seen, as in a projected scan.")
  List<String> columns = List.of();

  @Option(names = "--limit", paramLabel = "N", description = "At most N changes (default: all).")
  long limit;

  @Option(names = "--json", description = "One JSON object per change and line (with --stat: one object of counts).")
  boolean json;

  @Option(names = "--stat", description = "Only count the rows added, removed, changed and unchanged.")
  boolean stat;

  @Option(names = "--progress", description = "Show the progress (rows compared, changes found) on stderr even when"
      + " it is not a terminal.")
  boolean progress;

  private SnapshotSelector fromSelector;
  private SnapshotSelector toSelector;

  @Override
  void validate() {
    keys.validate(spec);
    RowScan.all().limit(limit);
    fromSelector = selector(from);
    toSelector = selector(to);
  }

  /**
   * {@code current}, a snapshot id, {@code tag:NAME} or {@code @TIME}.
   *
   * @throws IllegalArgumentException naming the value when it is none of them
   */
  static SnapshotSelector selector(String text) {
    String t = text.trim();
    if (t.equals("current")) {
      return SnapshotSelector.current();
    }
    if (t.startsWith("tag:")) {
      return SnapshotSelector.tag(t.substring(4));
    }
    if (t.startsWith("@")) {
      return SnapshotSelector.asOf(Converters.time(t.substring(1), java.time.Instant.now()));
    }
    if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
      return SnapshotSelector.snapshot(io.snapds.dataset.SnapshotId.parse(t));
    }
    throw new IllegalArgumentException("invalid snapshot '" + text + "': use current, a snapshot id, tag:NAME or"
        + " @TIME");
  }

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      Optional<Schema> schema = ds.schema();
      String family = ds.properties().defaultFamily();
      RowScan scan = schema.isPresent() ? typedColumns(RowScan.all(), schema.get(), family) : Columns.project(
          RowScan.all(), columns);
      scan = keys.apply(scan.limit(limit), TypedRead.keysOf(schema));
      PrintWriter out = out();
      try (DiffScanner diff = ds.diff(fromSelector, toSelector, scan)) {
        DiffProgress meter = meter(ds, diff);
        if (stat) {
          DiffSummary s = diff.summary();
          meter.done();
          if (json) {
            ObjectNode node = Json.MAPPER.createObjectNode();
            node.put("from", s.from().value());
            node.put("to", s.to().value());
            node.put("added", s.added());
            node.put("removed", s.removed());
            node.put("changed", s.changed());
            node.put("unchanged", s.unchanged());
            Json.println(out, node);
          } else {
            out.printf("%d added, %d removed, %d changed, %d unchanged (snapshot %s to %s)%n", s.added(), s.removed(),
                s.changed(), s.unchanged(), s.from(), s.to());
          }
          out.flush();
          return ExitCodes.OK;
        }
        Printer before = printer(ds, diff.from(), family);
        Printer after = printer(ds, diff.to(), family);
        long[] counts = new long[3];
        for (RowChange c : diff) {
          counts[c.kind().ordinal()]++;
          if (json) {
            ObjectNode node = Json.MAPPER.createObjectNode();
            node.put("change", c.kind().name());
            node.put("key", after.key(c.after().orElseGet(() -> c.before().orElseThrow())));
            c.before().ifPresent(r -> node.set("before", before.json(r)));
            c.after().ifPresent(r -> node.set("after", after.json(r)));
            Json.println(out, node);
          } else {
            out.println(line(c, before, after));
          }
        }
        out.flush();
        meter.done();
        if (!json) {
          err().printf("%d added, %d removed, %d changed (snapshot %s to %s)%n", counts[0], counts[1], counts[2],
              diff.from(), diff.to());
          err().flush();
        }
      }
    }
    return ExitCodes.OK;
  }

  /**
   * The progress line, on a terminal or with {@code --progress} (a meter that prints nothing
   * otherwise). A percentage only when the diff reads both snapshots whole: then it reads exactly
   * the rows their records count.
   */
  private DiffProgress meter(SnapshotDataset ds, DiffScanner diff) {
    boolean terminal = System.console() != null;
    if (!progress && !terminal) {
      return new DiffProgress(err(), false, 0, System::nanoTime);
    }
    boolean whole = keys.prefix == null && keys.start == null && keys.stop == null && columns.isEmpty() && limit == 0;
    long total = whole ? ds.snapshot(diff.from()).rowCount() + ds.snapshot(diff.to()).rowCount() : 0;
    DiffProgress meter = new DiffProgress(err(), terminal, total, System::nanoTime);
    diff.onProgress(DiffProgress.EVERY_ROWS, meter);
    return meter;
  }

  /** With a schema, {@code --columns} names fields: their cells in the dataset's family. */
  private RowScan typedColumns(RowScan scan, Schema schema, String family) {
    RowScan s = scan;
    for (String name : columns) {
      Field f = schema.field(name); // an unknown name fails here, naming it
      if (!f.isKey()) {
        s = s.column(family, f.name());
      }
    }
    return s;
  }

  private static String line(RowChange c, Printer before, Printer after) {
    return switch (c.kind()) {
      case ADDED -> "+ " + after.key(c.after().orElseThrow()) + cells(after.cells(c.after().orElseThrow()));
      case REMOVED -> "- " + before.key(c.before().orElseThrow()) + cells(before.cells(c.before().orElseThrow()));
      case CHANGED -> {
        Map<String, String> old = before.cells(c.before().orElseThrow());
        Map<String, String> now = after.cells(c.after().orElseThrow());
        StringBuilder b = new StringBuilder("~ ").append(after.key(c.after().orElseThrow()));
        TreeSet<String> names = new TreeSet<>(old.keySet());
        names.addAll(now.keySet());
        for (String n : names) {
          if (!Objects.equals(old.get(n), now.get(n))) {
            b.append("  ").append(n).append(": ").append(old.getOrDefault(n, "(none)")).append(" -> ")
                .append(now.getOrDefault(n, "(none)"));
          }
        }
        yield b.toString();
      }
    };
  }

  private static String cells(Map<String, String> cells) {
    StringBuilder b = new StringBuilder();
    cells.forEach((n, v) -> b.append("  ").append(n).append('=').append(v));
    return b.toString();
  }

  /** How one snapshot's rows print: with its own schema when it has one, else as bytes. */
  private static Printer printer(SnapshotDataset ds, io.snapds.dataset.SnapshotId snapshot, String family) {
    return new Printer(ds.schema(snapshot).map(s -> new RowCodec(s, family)));
  }

  private record Printer(Optional<RowCodec> codec) {
    String key(SnapshotRow row) {
      if (codec.isEmpty()) {
        return Bytes.toStringBinary(row.key());
      }
      SchemaRecord r = codec.get().decode(row);
      StringBuilder b = new StringBuilder();
      for (Field f : r.schema().keyFields()) {
        b.append(b.length() == 0 ? "" : TypedRead.KEY_SEPARATOR).append(ValueText.text(f, r.get(f.name())));
      }
      return b.toString();
    }

    Map<String, String> cells(SnapshotRow row) {
      Map<String, String> out = new LinkedHashMap<>();
      if (codec.isEmpty()) {
        row.families().forEach((f, cols) -> cols.forEach((q, v) ->
            out.put(Bytes.toString(f) + ":" + Bytes.toStringBinary(q), Bytes.toStringBinary(v))));
        return out;
      }
      SchemaRecord r = codec.get().decode(row);
      for (Field f : r.schema().fields()) {
        Object v = r.get(f.name());
        if (!f.isKey() && v != null) {
          out.put(f.name(), ValueText.text(f, v));
        }
      }
      return out;
    }

    ObjectNode json(SnapshotRow row) {
      return codec.isEmpty() ? Json.row(row) : Json.record(codec.get().decode(row));
    }
  }
}
