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

  /** The default: embedded without cluster options, the given cluster otherwise. */
  static EnvironmentFactory standard() {
    return options -> options.embedded() ? EmbeddedEnvironment.start(options.home())
        : ClusterEnvironment.connect(options);
  }
}
