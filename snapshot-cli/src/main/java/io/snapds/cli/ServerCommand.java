package io.snapds.cli;

import io.snapds.cli.env.EnvironmentOptions;
import io.snapds.cli.server.ServerControl;
import io.snapds.cli.server.ServerInfo;
import io.snapds.cli.output.Formats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "server", mixinStandardHelpOptions = true,
    description = {"The background server of the home: the embedded HBase and Tephra, kept running so that",
        "commands answer in about a second. The first command on a home starts it; it stops after an",
        "hour without commands, or with 'server stop'."},
    subcommands = {ServerCommand.Start.class, ServerCommand.Stop.class, ServerCommand.Status.class,
        ServerCommand.Run.class})
final class ServerCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing command: start, stop or status");
  }

  /** The home of a server subcommand; the server is the embedded default's only. */
  static Path home(CommandSpec spec) {
    EnvironmentOptions options = ((SnapdsCommand) spec.root().userObject()).environmentOptions();
    if (!options.embedded()) {
      throw new UserException(ExitCodes.USAGE, "the server is the embedded default's: "
          + "--hbase-site and --zookeeper name a cluster that runs elsewhere");
    }
    return options.home();
  }

  static String describe(ServerInfo s) {
    return "pid " + s.pid() + ", ZooKeeper at " + s.zookeeperQuorum() + s.metricsUrl().map(u -> ", metrics at " + u)
        .orElse("") + s.pageUrl().map(u -> ", status page at " + u).orElse("") + ", up since "
        + Formats.time(s.processStart());
  }

  @Command(name = "start", mixinStandardHelpOptions = true, description = "Starts the server unless it runs.")
  static final class Start implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--idle-timeout", paramLabel = "DURATION",
        description = "Stop after this long without a command (default: 1h; 0s for never).")
    Duration idle = Duration.ofHours(1);

    @Override
    public Integer call() {
      Path home = home(spec);
      Optional<ServerInfo> before = ServerControl.status(home);
      ServerInfo server = before.orElseGet(() -> ServerControl.start(home, idle));
      spec.commandLine().getOut().printf("snapds server of %s %s (%s)%n", home,
          before.isPresent() ? "is running" : "started", describe(server));
      spec.commandLine().getOut().flush();
      return ExitCodes.OK;
    }
  }

  @Command(name = "stop", mixinStandardHelpOptions = true,
      description = "Stops the server after the commands that run on it have finished.")
  static final class Stop implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--timeout", paramLabel = "DURATION",
        description = "How long to wait for running commands and the stop (default: 10m).")
    Duration timeout = Duration.ofMinutes(10);

    @Override
    public Integer call() {
      Path home = home(spec);
      spec.commandLine().getErr().printf("snapds: stopping the server of %s (waits for running commands)%n", home);
      spec.commandLine().getErr().flush();
      Optional<ServerInfo> stopped = ServerControl.stop(home, timeout);
      spec.commandLine().getOut().println(stopped.map(s -> "snapds server of " + home + " stopped (pid " + s.pid() + ")")
          .orElse("no snapds server runs on " + home));
      spec.commandLine().getOut().flush();
      return ExitCodes.OK;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true,
      description = "Whether the server runs; exit 3 if it does not.")
  static final class Status implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      Path home = home(spec);
      Optional<ServerInfo> server = ServerControl.status(home);
      String last = ServerControl.lastCommand(home).map(t -> ", last command " + Formats.time(t)).orElse("");
      spec.commandLine().getOut().println(server.map(s -> "snapds server of " + home + " is running (" + describe(s)
          + last + ")").orElse("no snapds server runs on " + home));
      spec.commandLine().getOut().flush();
      return server.isPresent() ? ExitCodes.OK : ExitCodes.NOT_FOUND;
    }
  }

  @Command(name = "run", hidden = true, description = "Runs the server in this process (what 'start' starts).")
  static final class Run implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", description = "Stop after this long without a command.")
    Duration idle = Duration.ofHours(1);

    @Override
    public Integer call() throws InterruptedException {
      ServerControl.run(home(spec), idle, InServerCommands::run);
      return ExitCodes.OK;
    }
  }
}
