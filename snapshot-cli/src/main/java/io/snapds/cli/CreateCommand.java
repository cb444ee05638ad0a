package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.schema.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "create", mixinStandardHelpOptions = true,
    description = "Create a dataset (its data, metadata and lock tables), with a schema if given.")
final class CreateCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name (or name, in 'default').")
  DatasetId dataset;

  @Option(names = "--families", split = ",", paramLabel = "FAMILY",
      description = "Column families, comma separated; the first is the default (default: d).")
  List<String> families = List.of("d");

  @Option(names = "--retain-last", paramLabel = "N",
      description = "Keep the newest N committed snapshots readable (default: 3).")
  int retainLast = RetentionPolicy.DEFAULT.retainLast();

  @Option(names = "--split-points", split = ",", paramLabel = "KEY",
      description = "Keys at which the first snapshot's range is split into regions before its first row, comma "
          + "separated (later snapshots inherit their parent's regions). Typed values of the first key fields "
          + "with --schema, else keys in Bytes.toBytesBinary form.")
  List<String> splitPoints = List.of();

  @Option(names = "--max-age", paramLabel = "DURATION",
      description = "Also keep snapshots younger than this (90s, 15m, 12h, 7d).")
  Duration maxAge;

  @Option(names = "--staged-max-age", paramLabel = "DURATION",
      description = "How long a staged snapshot ('load --stage') waits for its audit before the reconciler "
          + "discards it (default: 7d).")
  Duration stagedMaxAge;

  @ArgGroup(exclusive = true)
  SchemaSource schemaSource;

  static final class SchemaSource {
    @Option(names = "--schema", paramLabel = "FIELDS",
        description = "The rows' typed fields: 'id long key, name string, price decimal(10,2), at timestamp' "
            + "(types boolean int long float double string bytes decimal(p,s) date timestamp timestamptz; "
            + "'key' fields form the row key, 'not null' ones are required, others nullable).")
    String text;

    @Option(names = "--schema-file", paramLabel = "FILE", description = "The same text form, read from a file.")
    Path file;
  }

  private DatasetProperties properties;
  private Schema schema;

  @Override
  void validate() {
    RetentionPolicy retention = RetentionPolicy.retainLast(retainLast);
    if (maxAge != null) {
      retention = retention.withMaxAge(maxAge);
    }
    if (schemaSource != null) {
      schema = Schema.parse(schemaSource.text != null ? schemaSource.text : read(schemaSource.file));
    }
    DatasetProperties.Builder builder = DatasetProperties.builder().families(families).retention(retention)
        .firstSplitPoints(splitKeys(TypedRead.keysOf(Optional.ofNullable(schema))));
    if (stagedMaxAge != null) {
      builder.stagedMaxAge(stagedMaxAge);
    }
    properties = builder.build();
  }

  /** The split points as row keys, in key order, each once (the order given does not matter). */
  private List<byte[]> splitKeys(TypedRead keys) {
    java.util.TreeSet<byte[]> sorted = new java.util.TreeSet<>(org.apache.hadoop.hbase.util.Bytes.BYTES_COMPARATOR);
    for (String point : splitPoints) {
      sorted.add(keys.keyPrefix(point));
    }
    return List.copyOf(sorted);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).replaceAll("\\s+", " ").trim();
    } catch (IOException e) {
      throw new UserException(ExitCodes.BAD_INPUT, "cannot read schema file " + file + ": " + e, e);
    }
  }

  @Override
  int run(Environment env) {
    env.datasets().create(dataset, properties);
    if (schema != null) {
      try (SnapshotDataset ds = env.datasets().open(dataset)) {
        ds.setSchema(schema);
      }
    }
    out().printf("created dataset %s: families %s, retain last %d%s%s%s%s%n", dataset, properties.families(),
        properties.retention().retainLast(),
        properties.retention().maxAge().map(a -> " and those younger than " + a).orElse(""),
        stagedMaxAge == null ? "" : ", stages discarded after " + stagedMaxAge,
        splitPoints.isEmpty() ? "" : ", first snapshot split at " + properties.firstSplitPoints().size() + " keys",
        schema == null ? "" : ", schema 1 [" + schema + "]");
    return ExitCodes.OK;
  }
}
