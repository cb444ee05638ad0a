package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.output.RowPrinter;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "scan", mixinStandardHelpOptions = true,
    description = "Print rows of one snapshot (the current one by default), in key order.")
final class ScanCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Mixin
  SnapshotSelection selection;

  @picocli.CommandLine.Mixin
  KeyOptions keys;

  @Option(names = "--columns", split = ",", paramLabel = "FAMILY[:QUALIFIER]",
      description = "Only these columns or families, comma separated (with a schema: field names).")
  List<String> columns = List.of();

  @Option(names = "--limit", paramLabel = "N", description = "At most N rows (default: all).")
  long limit;

  @Option(names = "--json", description = "One JSON object per row and line (with a schema: typed fields).")
  boolean json;

  @Override
  void validate() {
    keys.validate(spec);
    RowScan.all().limit(limit); // checks the limit before the environment starts
  }

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      SnapshotReader reader = selection.reader(ds);
      TypedRead typed = TypedRead.of(ds, reader, columns);
      RowScan scan = keys.apply(typed.scan().limit(limit), typed);
      RowPrinter printer = typed.printer(out(), json);
      try (RowScanner rows = reader.scan(scan)) {
        for (SnapshotRow row : rows) {
          printer.print(row);
        }
      }
      long n = printer.finish();
      if (!json) {
        err().printf("%d row%s of snapshot %s%n", n, n == 1 ? "" : "s", reader.snapshotId());
        err().flush();
      }
    }
    return ExitCodes.OK;
  }
}
