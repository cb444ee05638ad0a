package io.snapds.cli.server;

import io.snapds.cli.env.EnvironmentException;
import io.snapds.cli.env.HomeLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** What {@code snapds server start|stop|status} do with the server of a home. */
public final class ServerControl {
  private ServerControl() {}

  /** The running server of {@code home}, if any. */
  public static Optional<ServerInfo> status(Path home) {
    return ServerEnvironment.running(home);
  }

  /** When a command last ran on the home (its command lock was taken), if ever. */
  public static Optional<Instant> lastCommand(Path home) {
    Instant t = CommandLock.lastUsed(home);
    return t.equals(Instant.EPOCH) ? Optional.empty() : Optional.of(t);
  }

  /**
   * The running server of {@code home}, started first (stopping after {@code idle} without a
   * command, never if zero) when none runs.
   */
  public static ServerInfo start(Path home, Duration idle) {
    Instant deadline = Instant.now().plus(ServerProcess.START_TIMEOUT);
    while (true) {
      Optional<ServerInfo> server = ServerEnvironment.startIfNone(home, idle);
      if (server.isPresent()) {
        return server.get();
      }
      if (Instant.now().isAfter(deadline)) {
        throw new EnvironmentException("snapds home " + home + " is in use (" + HomeLock.holder(home)
            + ") and no server of it started within " + ServerProcess.START_TIMEOUT);
      }
    }
  }

  /**
   * Asks the server to stop and waits until its process ended, at most {@code timeout}: running
   * commands finish first. Returns the server that was stopped, or empty if none ran.
   *
   * @throws EnvironmentException if the server is still running after {@code timeout}
   */
  public static Optional<ServerInfo> stop(Path home, Duration timeout) {
    Optional<ServerInfo> server = status(home);
    if (server.isEmpty()) {
      return server;
    }
    try {
      Files.writeString(home.resolve(HomeServer.STOP_FILE), "stop requested by pid " + ProcessHandle.current().pid());
    } catch (IOException e) {
      throw new EnvironmentException("cannot ask the snapds server of " + home + " to stop: " + e.getMessage(), e);
    }
    Instant deadline = Instant.now().plus(timeout);
    while (server.get().process().isPresent()) {
      if (Instant.now().isAfter(deadline)) {
        throw new EnvironmentException("the snapds server of " + home + " (pid " + server.get().pid()
            + ") is still stopping after " + timeout + " (it waits for running commands)");
      }
      ServerProcess.pause(Duration.ofMillis(50));
    }
    return server;
  }

  /** Runs the server of {@code home} in this process until it is stopped. */
  public static void run(Path home, Duration idle, CommandService.Runner commands) throws InterruptedException {
    HomeServer.run(home, idle, commands);
  }
}
