package io.snapds.cli.env;

/**
 * Opens the {@link Environment} the global options describe. The command line opens one only
 * when a command needs it (never for {@code --help}); tests inject their own factory.
 */
@FunctionalInterface
public interface EnvironmentFactory {
  /**
   * @throws EnvironmentException when the cluster cannot be reached, the home is in use by
   *     another process, or the options do not name a complete environment
   */
  Environment open(EnvironmentOptions options);

  /**
   * The default: without cluster options, a client of the home's server (started if none runs),
   * or with {@code SNAPDS_SERVER=off} HBase and Tephra in this process; the given cluster
   * otherwise.
   */
  static EnvironmentFactory standard() {
    return options -> {
      if (!options.embedded()) {
        return ClusterEnvironment.connect(options);
      }
      return "off".equalsIgnoreCase(System.getenv("SNAPDS_SERVER")) ? EmbeddedEnvironment.start(options.home())
          : ServerEnvironment.connect(options.home());
    };
  }
}
