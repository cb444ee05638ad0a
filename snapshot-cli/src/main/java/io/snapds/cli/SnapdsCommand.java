package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.env.EnvironmentFactory;
import io.snapds.cli.env.EnvironmentOptions;
import io.snapds.cli.env.KerberosLogin;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code snapds}: the root command. Its options say where commands run (embedded by default, or a
 * cluster); they are accepted before or after the subcommand's name.
 */
@Command(name = "snapds", mixinStandardHelpOptions = true, version = "snapds 0.1.0",
    description = "Versioned snapshot datasets on HBase and Tephra.%n"
        + "Without cluster options, commands run on an embedded HBase and Tephra whose data stays in "
        + "the home directory (--home, $SNAPDS_HOME, default ~/.snapds).",
    subcommands = {CreateCommand.class, DropCommand.class, ListCommand.class, HistoryCommand.class,
        ShowCommand.class, SchemaCommand.class, LoadCommand.class, PublishCommand.class, DiscardCommand.class, ScanCommand.class, GetCommand.class, DiffCommand.class, RollbackCommand.class,
        TagCommand.class, ExpireCommand.class, GcCommand.class, LockCommand.class, GrantCommand.class,
        RevokeCommand.class, PermissionsCommand.class, UpgradeCommand.class, StatusCommand.class, UiCommand.class, ReconcileCommand.class, DemoCommand.class, ServerCommand.class,
        CommandLine.HelpCommand.class})
public final class SnapdsCommand implements Runnable {
  private final EnvironmentFactory environments;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Option(names = "--home", scope = ScopeType.INHERIT, paramLabel = "DIR",
      description = "Home of the embedded HBase and Tephra (default: $SNAPDS_HOME or ~/.snapds).")
  private Path home;

  @Option(names = "--hbase-site", scope = ScopeType.INHERIT, paramLabel = "FILE",
      description = "Use the HBase cluster of this hbase-site.xml instead of the embedded one.")
  private Path hbaseSite;

  @Option(names = "--zookeeper", scope = ScopeType.INHERIT, paramLabel = "QUORUM",
      description = "Use the HBase cluster of this ZooKeeper quorum (host[:port][,host...]).")
  private String zookeeper;

  @Option(names = "--tx-service", scope = ScopeType.INHERIT, paramLabel = "ZK_QUORUM",
      description = "With a cluster: Tephra's transaction service, discovered through this ZooKeeper.")
  private String txService;

  @Option(names = "--local-tx", scope = ScopeType.INHERIT, paramLabel = "DIR",
      description = "With a cluster and no transaction service: a Tephra manager in this process, "
          + "state in DIR (one user at a time only).")
  private Path localTx;

  @Option(names = "--principal", scope = ScopeType.INHERIT, paramLabel = "PRINCIPAL",
      description = "With a Kerberos-secured cluster: log in as this principal (with --keytab).")
  private String principal;

  @Option(names = "--keytab", scope = ScopeType.INHERIT, paramLabel = "FILE",
      description = "The keytab of --principal.")
  private Path keytab;

  @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
      description = "Show stack traces of errors.")
  private boolean verbose;

  public SnapdsCommand(EnvironmentFactory environments) {
    this.environments = environments;
  }

  /** The command line with its error reporting, over the given environments. */
  public static CommandLine commandLine(EnvironmentFactory environments) {
    SnapdsCommand root = new SnapdsCommand(environments);
    ErrorReporter errors = new ErrorReporter(root);
    return new CommandLine(root)
        .setExecutionExceptionHandler(errors)
        .setParameterExceptionHandler(errors)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .registerConverter(io.snapds.dataset.DatasetId.class, new Converters.DatasetIdConverter())
        .registerConverter(io.snapds.dataset.SnapshotId.class, new Converters.SnapshotIdConverter())
        .registerConverter(java.time.Duration.class, new Converters.DurationConverter())
        .registerConverter(java.time.Instant.class, new Converters.TimeConverter());
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  boolean verbose() {
    return verbose;
  }

  EnvironmentOptions environmentOptions() {
    Path dir = home != null ? home : defaultHome();
    return new EnvironmentOptions(dir, Optional.ofNullable(hbaseSite), Optional.ofNullable(zookeeper),
        Optional.ofNullable(txService), Optional.ofNullable(localTx));
  }

  /** Opens the environment the options say; the caller closes it. */
  Environment openEnvironment() {
    EnvironmentOptions options = environmentOptions();
    if (System.getProperty("snapds.log.dir") == null) {
      System.setProperty("snapds.log.dir", options.home().resolve("logs").toString());
    }
    kerberosLogin().ifPresent(login -> {
      if (options.embedded()) {
        throw new IllegalArgumentException("--principal/--keytab need a cluster (--hbase-site or --zookeeper)");
      }
      login.login(KerberosLogin.configuration(options.hbaseSite()));
    });
    return environments.open(options);
  }

  /** The Kerberos login the options ask for, checked (both given, keytab readable). */
  Optional<KerberosLogin> kerberosLogin() {
    return KerberosLogin.of(principal, keytab);
  }

  static Path defaultHome() {
    String env = System.getenv("SNAPDS_HOME");
    return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".snapds");
  }
}
