package io.snapds.cli.server;

import io.snapds.cli.env.EnvironmentFactory;

/** The command line's default {@link EnvironmentFactory}. */
public final class Environments {
  private Environments() {}

  /**
   * Without cluster options, a client of the home's server (started if none runs), or with
   * {@code SNAPDS_SERVER=off} HBase and Tephra in this process; the given cluster otherwise
   * ({@link EnvironmentFactory#inProcess()} for the last two).
   */
  public static EnvironmentFactory standard() {
    EnvironmentFactory inProcess = EnvironmentFactory.inProcess();
    return options -> options.embedded() && !"off".equalsIgnoreCase(System.getenv("SNAPDS_SERVER"))
        ? ServerEnvironment.connect(options.home()) : inProcess.open(options);
  }
}
