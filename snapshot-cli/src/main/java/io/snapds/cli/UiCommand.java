package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.server.StatusPage;
import io.snapds.cli.output.DatasetReport;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "ui", mixinStandardHelpOptions = true,
    description = {"Serve the status page of this environment's datasets (the embedded home, or the cluster of "
        + "--hbase-site/--zookeeper) on http://127.0.0.1:PORT/ until stopped (Ctrl-C): what 'snapds status' "
        + "says, and a timeline of each dataset's publishes and rollbacks.",
        "Loopback only, read-only, behind a token: open the address it prints (it carries the token)."})
final class UiCommand extends EnvCommand {
  @Option(names = "--port", paramLabel = "PORT",
      description = "The port on 127.0.0.1 (default: 0, a free port; the address is printed).")
  int port;

  @Option(names = "--stale", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
      description = "As for 'snapds status' (default: 1h).")
  Duration stale = Duration.ofHours(1);

  @Option(names = "--timeline", paramLabel = "N",
      description = "How many of a dataset's latest publishes and rollbacks its timeline shows (default: 200).")
  int timeline = DatasetReport.DEFAULT_TIMELINE;

  @Override
  void validate() {
    if (port < 0 || port > 65_535) {
      throw new UserException(ExitCodes.USAGE, "--port must be 0 (any free port) to 65535, not " + port);
    }
    if (timeline < 1) {
      throw new UserException(ExitCodes.USAGE, "--timeline must be at least 1, not " + timeline);
    }
  }

  @Override
  int run(Environment env) {
    Thread serving = Thread.currentThread();
    CountDownLatch done = new CountDownLatch(1);
    // Ctrl-C: the page stops serving (its port is free) before the JVM ends
    Thread hook = new Thread(() -> {
      serving.interrupt();
      try {
        done.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "snapds-ui-stop");
    try (StatusPage page = StatusPage.start(port, env, StatusPage.newToken(), stale, timeline)) {
      Runtime.getRuntime().addShutdownHook(hook);
      out().println("snapds: status page of " + env.description() + " at " + page.url());
      out().println("snapds: Ctrl-C stops it");
      out().flush();
      new CountDownLatch(1).await();
      return ExitCodes.OK;
    } catch (InterruptedException e) {
      return ExitCodes.OK;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException | IllegalArgumentException e) {
        // the JVM is shutting down (the hook runs) or it was never added
      }
      done.countDown();
    }
  }
}
