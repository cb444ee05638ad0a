package io.snapds.cli.env;

/**
 * Opens the {@link Environment} the global options describe. The command line opens one only
 * when a command needs it (never for {@code --help}); tests inject their own factory. The
 * command line's default, a client of the home's server, is
 * {@code io.snapds.cli.server.Environments.standard()}.
 */
@FunctionalInterface
public interface EnvironmentFactory {
  /**
   * @throws EnvironmentException when the cluster cannot be reached, the home is in use by
   *     another process, or the options do not name a complete environment
   */
  Environment open(EnvironmentOptions options);

  /**
   * Without a server: without cluster options, HBase and Tephra in this process over the home
   * directory (what {@code SNAPDS_SERVER=off} chooses); the given cluster otherwise.
   */
  static EnvironmentFactory inProcess() {
    return options -> options.embedded() ? EmbeddedEnvironment.start(options.home())
        : ClusterEnvironment.connect(options);
  }
}
