package io.snapds.cli.server;

import io.snapds.cli.env.EnvironmentException;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts the server of a home as a background process ({@code snapds server run} in a new JVM
 * with this JVM's class path and module flags, in a session of its own so that a Ctrl-C in the
 * terminal does not reach it) and waits until it announces itself.
 */
final class ServerProcess {
  /** HBase's start on a busy small machine takes 5 to 30 s; past this the start counts as failed. */
  static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  /** JVM options of a short command that a long-lived server should not inherit. */
  private static final List<String> CLIENT_ONLY = List.of("-XX:SharedArchiveFile", "-XX:ArchiveClassesAtExit",
      "-Xshare", "-XX:TieredStopAtLevel", "-XX:+UseSerialGC", "-Xmx", "-Xms", "-Xss", "-agentlib", "-javaagent",
      "-XX:+AutoCreateSharedArchive");

  private ServerProcess() {}

  /** Starts the server and returns its announcement, or throws with the tail of its output. */
  static ServerInfo start(Path home, Duration idle) {
    Path out = home.resolve("logs").resolve("server.out");
    Process process;
    try {
      Files.createDirectories(out.getParent());
      process = new ProcessBuilder(command(home, idle))
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
          .redirectErrorStream(true)
          .start();
    } catch (IOException e) {
      throw new EnvironmentException("cannot start the snapds server of " + home + ": " + e.getMessage(), e);
    }
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (true) {
      Optional<ServerInfo> info = ServerInfo.read(home).filter(i -> i.process().isPresent());
      if (info.isPresent()) {
        return info.get();
      }
      if (!process.isAlive()) {
        throw new EnvironmentException("the snapds server of " + home + " stopped while starting (exit "
            + process.exitValue() + "): " + tail(out) + " (see " + home.resolve("logs") + ")");
      }
      if (Instant.now().isAfter(deadline)) {
        process.destroy();
        throw new EnvironmentException("the snapds server of " + home + " did not start within " + START_TIMEOUT
            + " (see " + home.resolve("logs") + ")");
      }
      pause(Duration.ofMillis(50));
    }
  }

  static List<String> command(Path home, Duration idle) {
    List<String> command = new ArrayList<>();
    if (new File("/usr/bin/setsid").canExecute()) {
      command.add("/usr/bin/setsid");
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (CLIENT_ONLY.stream().noneMatch(arg::startsWith)) {
        command.add(arg);
      }
    }
    command.add("-Xmx2g");
    command.add("-Dsnapds.log.name=server");
    String extra = System.getenv("SNAPDS_SERVER_JAVA_OPTS");
    if (extra != null && !extra.isBlank()) {
      command.addAll(List.of(extra.trim().split("\\s+")));
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.snapds.cli.Main");
    command.addAll(List.of("server", "run", "--home", home.toString(), "--idle-timeout", idle.toString()));
    return command;
  }

  private static String tail(Path out) {
    try {
      List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      return "no output";
    }
  }

  static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvironmentException("interrupted while waiting for the snapds server", e);
    }
  }
}
