package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.output.RowPrinter;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Print rows by key from one snapshot (the current one by default).")
final class GetCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "KEY",
      description = "Row keys (\\xNN for non-printable bytes; with a schema: the key fields' values joined by '|').")
  List<String> keys;

  @Mixin
  SnapshotSelection selection;

  @Option(names = "--columns", split = ",", paramLabel = "FAMILY[:QUALIFIER]",
      description = "Only these columns or families, comma separated (with a schema: field names).")
  List<String> columns = List.of();

  @Option(names = "--json", description = "One JSON object per row and line.")
  boolean json;

  @Override
  int run(Environment env) {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      SnapshotReader reader = selection.reader(ds);
      TypedRead typed = TypedRead.of(ds, reader, columns);
      List<byte[]> bytes = new ArrayList<>();
      keys.forEach(k -> bytes.add(typed.key(k)));
      RowScan projection = typed.scan();
      RowPrinter printer = typed.printer(out(), json);
      List<String> missing = new ArrayList<>();
      for (int i = 0; i < bytes.size(); i++) {
        Optional<SnapshotRow> row = projection.columns().isEmpty() ? reader.get(bytes.get(i)) : reader.get(bytes.get(i), projection);
        if (row.isPresent()) {
          printer.print(row.get());
        } else {
          missing.add(keys.get(i));
        }
      }
      printer.finish();
      if (!missing.isEmpty()) {
        err().printf("not in snapshot %s: %s%n", reader.snapshotId(), String.join(", ", missing));
        err().flush();
        return ExitCodes.NOT_FOUND;
      }
    }
    return ExitCodes.OK;
  }
}
