package io.snapds.cli.env;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where to run, as the global options say: a home directory for the embedded default, or a
 * cluster (an {@code hbase-site.xml} or a ZooKeeper quorum) with Tephra's transaction service
 * (its ZooKeeper quorum) or a local transaction manager's state directory.
 */
public record EnvironmentOptions(Path home, Optional<Path> hbaseSite, Optional<String> zookeeper,
    Optional<String> txService, Optional<Path> localTx) {
  public EnvironmentOptions {
    home = home.toAbsolutePath().normalize();
  }

  /** True when no cluster is given: run HBase and Tephra in this process. */
  public boolean embedded() {
    return hbaseSite.isEmpty() && zookeeper.isEmpty();
  }

  public static EnvironmentOptions embedded(Path home) {
    return new EnvironmentOptions(home, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }
}
