package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.load.BadInputException;
import io.snapds.cli.load.ProgressMeter;
import io.snapds.cli.load.RecordMapping;
import io.snapds.cli.load.RecordSource;
import io.snapds.cli.load.RowMapping;
import io.snapds.cli.load.SchemaMapping;
import io.snapds.cli.load.SnapshotLoader;
import io.snapds.cli.output.Formats;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.NewSnapshot;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "load", mixinStandardHelpOptions = true,
    description = {"Load a CSV (with a header line) or JSON Lines file into a new snapshot and publish it",
        "(with --stage: stage it for an audit; 'snapds publish' or 'snapds discard' decides later).",
        "The file is streamed; a bad line stops the load with its line number and nothing is published.",
        "Each non-key field becomes the cell FAMILY:FIELD with the field's text; in a dataset with a schema,",
        "each field is parsed as its type and written in the schema's encoding (the key from the key fields)."})
final class LoadCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1", paramLabel = "FILE", description = "Input file (.csv, .tsv, .jsonl, .ndjson, .json; .gz too).")
  Path file;

  @Option(names = {"-k", "--key"}, split = ",", paramLabel = "COLUMN",
      description = "Key column(s), comma separated; several are joined by --key-separator. "
          + "Required without a schema; a dataset with a schema takes its key fields.")
  List<String> keyColumns;

  @Option(names = "--key-separator", paramLabel = "SEP", description = "Joins several key columns (default: '|').")
  String keySeparator = "|";

  @Option(names = "--keep-key-columns", description = "Also write the key columns as cells.")
  boolean keepKeyColumns;

  @Option(names = {"-f", "--family"}, paramLabel = "FAMILY", description = "Column family (default: the dataset's first).")
  String family;

  @Option(names = "--format", paramLabel = "FORMAT", description = "csv or jsonl (default: from the file name).")
  RecordSource.Format format;

  @Option(names = "--delimiter", paramLabel = "CHAR", description = "CSV field delimiter (default: ',' or tab for .tsv).")
  Character delimiter;

  @Option(names = "--run-id", paramLabel = "ID", description = "Pipeline run id: a run id is published at most once.")
  String runId;

  @Option(names = "--source-key", paramLabel = "KEY", description = "What the snapshot is built from (e.g. a time range).")
  String sourceKey;

  @Option(names = "--stage",
      description = "Stage the snapshot instead of publishing it: readable by id (scan --snapshot ID), never current "
          + "until 'snapds publish DATASET@ID'; 'snapds discard DATASET@ID' drops it.")
  boolean stage;

  @Option(names = {"-q", "--quiet"},
      description = "Print only DATASET@ID of the snapshot (for scripts: S=$(snapds load ... --stage -q)).")
  boolean quiet;

  @Option(names = "--progress", description = "Show the progress line even when stderr is not a terminal.")
  boolean progress;

  @Override
  void validate() {
    if (!Files.exists(file)) {
      throw new UserException(ExitCodes.BAD_INPUT, "cannot read input file " + file + ": no such file");
    }
    if (Files.isDirectory(file) || !Files.isReadable(file)) {
      throw new UserException(ExitCodes.BAD_INPUT, "cannot read input file " + file
          + (Files.isDirectory(file) ? ": it is a directory" : ": permission denied"));
    }
    if (format == null) {
      format = RecordSource.Format.ofFileName(file.getFileName().toString()).orElseThrow(() ->
          new picocli.CommandLine.ParameterException(spec.commandLine(),
              "cannot tell the format of " + file + " from its name: give --format csv or --format jsonl"));
    }
    if (delimiter == null) {
      delimiter = file.getFileName().toString().toLowerCase().matches(".*\\.tsv(\\.gz)?") ? '\t' : ',';
    }
    if (keyColumns != null) {
      new RowMapping(keyColumns, keySeparator, "d", keepKeyColumns); // validates the key columns
    }
  }

  @Override
  int run(Environment env) throws IOException {
    try (SnapshotDataset ds = env.datasets().open(dataset)) {
      String fam = family != null ? family : ds.properties().defaultFamily();
      if (!ds.properties().families().contains(fam)) {
        throw new IllegalArgumentException("dataset " + dataset + " has no column family '" + fam
            + "' (it has " + ds.properties().families() + ")");
      }
      RecordMapping mapping = mapping(ds.schema(), fam, ds.properties().defaultFamily());
      NewSnapshot builder = ds.newSnapshot();
      if (runId != null) {
        builder.runId(runId);
      }
      if (sourceKey != null) {
        builder.sourceKey(sourceKey);
      }
      boolean terminal = System.console() != null;
      ProgressMeter meter = new ProgressMeter(err(), progress || terminal, terminal);
      try (SnapshotWriter writer = builder.begin(); RecordSource source = format.open(reader(file), delimiter,
          mapping.emptyIsNull())) {
        if (writer.alreadyPublished().isPresent()) {
          SnapshotInfo s = writer.alreadyPublished().get();
          boolean staged = s.state() == SnapshotState.STAGED;
          if (quiet) {
            out().println(new StagedRef(dataset, s.id()));
            out().flush();
            return ExitCodes.OK;
          }
          out().printf("dataset %s: %s was %s already as snapshot %s; nothing loaded%n", dataset,
              runId != null ? "run " + runId : "source key " + sourceKey, staged ? "staged" : "published", s.id());
          if (staged) {
            printStageHint(s);
          }
          out().flush();
          return ExitCodes.OK;
        }
        writer.summary("source.file", file.getFileName().toString());
        new SnapshotLoader(mapping, meter).load(source, writer);
        SnapshotInfo published = stage ? writer.stage() : writer.commit();
        double seconds = meter.elapsedSeconds();
        if (quiet) {
          out().println(new StagedRef(dataset, published.id()));
          out().flush();
          return ExitCodes.OK;
        }
        out().printf("dataset %s: %s snapshot %s: %,d rows, %s in %.1f s (%,.0f rows/s)%n", dataset,
            published.state() == SnapshotState.STAGED ? "staged" : "published", published.id(), published.rowCount(),
            Formats.bytes(published.byteCount()), seconds, published.rowCount() / Math.max(seconds, 1e-3));
        if (published.state() == SnapshotState.STAGED) {
          printStageHint(published);
        }
      } catch (BadInputException e) {
        throw new UserException(ExitCodes.BAD_INPUT, file + " " + e.getMessage() + "; nothing was "
            + (stage ? "staged" : "published"));
      }
    }
    out().flush();
    return ExitCodes.OK;
  }

  /** What to do with a staged snapshot: check it by id, then publish or discard it. */
  private void printStageHint(SnapshotInfo staged) {
    StagedRef ref = new StagedRef(dataset, staged.id());
    out().printf("  not current until published; check it:  snapds scan %s --snapshot %s%n", dataset, staged.id());
    out().printf("  then:  snapds publish %s   or:  snapds discard %s%n", ref, ref);
  }

  private RecordMapping mapping(Optional<Schema> schema, String fam, String firstFamily) {
    if (schema.isEmpty()) {
      if (keyColumns == null) {
        throw new UserException(ExitCodes.USAGE, "dataset " + dataset + " has no schema: give the key column(s) "
            + "with --key");
      }
      return new RowMapping(keyColumns, keySeparator, fam, keepKeyColumns);
    }
    if (keyColumns != null || keepKeyColumns) {
      throw new UserException(ExitCodes.USAGE, "dataset " + dataset + " has a schema, whose key fields "
          + schema.get().keyFields().stream().map(f -> f.name()).toList()
          + " form the row key: leave out --key and --keep-key-columns");
    }
    if (!fam.equals(firstFamily)) {
      throw new UserException(ExitCodes.USAGE, "dataset " + dataset + " has a schema: its cells are in its first "
          + "family; leave out --family");
    }
    return new SchemaMapping(schema.get(), fam);
  }

  private static Reader reader(Path file) throws IOException {
    InputStream in = Files.newInputStream(file);
    if (file.getFileName().toString().toLowerCase().endsWith(".gz")) {
      in = new GZIPInputStream(in, 1 << 16);
    }
    return new java.io.BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
  }
}
