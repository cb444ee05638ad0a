package io.snapds.cli;

import io.snapds.dataset.RowScan;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The rows a reading command covers: a key prefix, or a start and stop key (scan, diff). */
final class KeyOptions {
  @Option(names = "--prefix", paramLabel = "KEY",
      description = "Only rows whose key starts with this (with a schema: the first key field(s), joined by '|').")
  String prefix;

  @Option(names = "--start", paramLabel = "KEY", description = "First key (inclusive; with a schema: typed key values).")
  String start;

  @Option(names = "--stop", paramLabel = "KEY", description = "Last key (exclusive; with a schema: typed key values).")
  String stop;

  /** @throws ParameterException when a prefix is given with a start or stop */
  void validate(CommandSpec spec) {
    if (prefix != null && (start != null || stop != null)) {
      throw new ParameterException(spec.commandLine(), "--prefix cannot be combined with --start/--stop");
    }
  }

  /** {@code scan} narrowed to these keys, encoded as {@code keys} encodes them (typed with a schema). */
  RowScan apply(RowScan scan, TypedRead keys) {
    if (prefix != null) {
      return scan.prefix(keys.keyPrefix(prefix));
    }
    if (start != null || stop != null) {
      return scan.range(start == null ? null : keys.keyPrefix(start), stop == null ? null : keys.keyPrefix(stop));
    }
    return scan;
  }
}
