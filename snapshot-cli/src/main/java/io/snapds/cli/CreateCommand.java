package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "create", mixinStandardHelpOptions = true,
    description = "Create a dataset (its data, metadata and lock tables).")
final class CreateCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name (or name, in 'default').")
  DatasetId dataset;

  @Option(names = "--families", split = ",", paramLabel = "FAMILY",
      description = "Column families, comma separated; the first is the default (default: d).")
  List<String> families = List.of("d");

  @Option(names = "--retain-last", paramLabel = "N",
      description = "Keep the newest N committed snapshots readable (default: 3).")
  int retainLast = RetentionPolicy.DEFAULT.retainLast();

  @Option(names = "--max-age", paramLabel = "DURATION",
      description = "Also keep snapshots younger than this (90s, 15m, 12h, 7d).")
  Duration maxAge;

  private DatasetProperties properties;

  @Override
  void validate() {
    RetentionPolicy retention = RetentionPolicy.retainLast(retainLast);
    if (maxAge != null) {
      retention = retention.withMaxAge(maxAge);
    }
    properties = DatasetProperties.builder().families(families).retention(retention).build();
  }

  @Override
  int run(Environment env) {
    env.datasets().create(dataset, properties);
    out().printf("created dataset %s: families %s, retain last %d%s%n", dataset, properties.families(),
        properties.retention().retainLast(),
        properties.retention().maxAge().map(a -> " and those younger than " + a).orElse(""));
    return ExitCodes.OK;
  }
}
