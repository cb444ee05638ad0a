package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.admin.CompositeDatasetAdmin;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that needs HBase and Tephra: {@link #validate()} checks what can be checked without
 * them (so a typo fails fast, before an embedded cluster starts), then {@link #run} gets the
 * environment, which is closed afterwards.
 */
abstract class EnvCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Override
  public final Integer call() throws Exception {
    validate();
    SnapdsCommand root = (SnapdsCommand) spec.root().userObject();
    try (Environment env = root.openEnvironment()) {
      return run(env);
    }
  }

  /** Checks arguments before the environment opens; throws {@link UserException} or IAE. */
  void validate() {}

  abstract int run(Environment env) throws Exception;

  /**
   * The admin of {@code dataset}, which must exist.
   *
   * @throws DatasetNotFoundException if it does not
   */
  static CompositeDatasetAdmin existingAdmin(Environment env, DatasetId dataset) {
    if (!env.datasets().exists(dataset)) {
      throw new DatasetNotFoundException(dataset, "");
    }
    return env.datasets().admin(dataset);
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
