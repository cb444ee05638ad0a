package io.snapds.cli.server;

import io.snapds.cli.env.Environment;
import io.snapds.cli.env.EnvironmentException;
import io.snapds.cli.env.HomeLock;
import io.snapds.cli.env.TxServiceConnection;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.tephra.TransactionSystemClient;

/**
 * The embedded default as a client of the home's {@link HomeServer}: an HBase connection and a
 * Tephra transaction service client through the server's loopback ZooKeeper, with the
 * {@link CommandLock} held shared while the command runs (so a stop waits for it).
 *
 * <p>Finding the server: with the command lock held, a valid {@link ServerInfo} (its process
 * alive) means connect. Otherwise, without the command lock (a stopping server waits for it), and
 * under {@code server-start.lock} (one starter at a time): if the {@link HomeLock} is free no server
 * runs (a crashed one died with its lock), so start one and wait for its announcement; if it is
 * held, a server is starting or stopping, or another process uses the home: wait and look again.
 * A server of another build (started before the command line was rebuilt) is stopped and replaced.
 */
final class ServerEnvironment implements Environment {
  static final Duration DEFAULT_IDLE = Duration.ofHours(1);
  private static final String START_LOCK = "server-start.lock";
  private static final Duration STALE_STOP_TIMEOUT = Duration.ofMinutes(10);

  private final Path home;
  private final CommandLock commandLock;
  private final Connection connection;
  private final TxServiceConnection tephra;

  private ServerEnvironment(Path home, CommandLock commandLock, Connection connection, TxServiceConnection tephra) {
    this.home = home;
    this.commandLock = commandLock;
    this.connection = connection;
    this.tephra = tephra;
  }

  /** Connects to the server of {@code home}, starting it first if none runs. */
  static ServerEnvironment connect(Path home) {
    Instant deadline = Instant.now().plus(ServerProcess.START_TIMEOUT);
    while (true) {
      CommandLock commandLock = CommandLock.shared(home);
      Optional<ServerInfo> server;
      try {
        server = running(home); // refuses an announcement that another user could have written
      } catch (RuntimeException e) {
        commandLock.close();
        throw e;
      }
      if (server.isPresent() && server.get().build() != ServerInfo.currentBuild()) {
        commandLock.close();
        System.err.println("snapds: the server of " + home + " runs an older build; restarting it");
        ServerControl.stop(home, STALE_STOP_TIMEOUT);
        continue;
      }
      if (server.isPresent()) {
        try {
          return connect(home, server.get(), commandLock);
        } catch (RuntimeException e) {
          commandLock.close();
          throw e;
        }
      }
      commandLock.close();
      if (Instant.now().isAfter(deadline)) {
        throw new EnvironmentException("snapds home " + home + " is in use (" + HomeLock.holder(home)
            + ") and no server of it answered within " + ServerProcess.START_TIMEOUT);
      }
      startIfNone(home, DEFAULT_IDLE);
    }
  }

  /** The announced server, if its process runs. */
  static Optional<ServerInfo> running(Path home) {
    return ServerInfo.read(home).filter(s -> s.process().isPresent());
  }

  /**
   * Starts a server unless one runs or the home is held; returns the running one, or empty when
   * the home is held by a process that has not announced a server (starting, stopping, or an
   * embedded command in its own process), after a short pause.
   */
  static synchronized Optional<ServerInfo> startIfNone(Path home, Duration idle) {
    try {
      Files.createDirectories(home); // 'server start' on a new home: nothing has made it yet
    } catch (IOException e) {
      throw new EnvironmentException("cannot create snapds home " + home + ": " + e.getMessage(), e);
    }
    try (FileChannel channel = FileChannel.open(home.resolve(START_LOCK), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock starting = channel.lock()) {
      Optional<ServerInfo> server = running(home);
      if (server.isPresent()) {
        return server;
      }
      Optional<HomeLock> free = HomeLock.tryAcquire(home);
      if (free.isEmpty()) {
        ServerProcess.pause(Duration.ofMillis(100));
        return Optional.empty();
      }
      free.get().close();
      System.err.println("snapds: starting the server of " + home + " in the background (later commands "
          + "connect to it; 'snapds server stop' stops it)");
      return Optional.of(ServerProcess.start(home, idle));
    } catch (IOException e) {
      throw new EnvironmentException("cannot use snapds home " + home + ": " + e.getMessage(), e);
    }
  }

  private static ServerEnvironment connect(Path home, ServerInfo server, CommandLock commandLock) {
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.ZOOKEEPER_QUORUM, "localhost");
    conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, server.zookeeperPort());
    conf.setIfUnset("zookeeper.recovery.retry", "1");
    conf.setIfUnset(HConstants.HBASE_CLIENT_RETRIES_NUMBER, "5");
    conf.setIfUnset(HConstants.ZK_SESSION_TIMEOUT, "10000");
    Connection connection;
    try {
      connection = ConnectionFactory.createConnection(conf);
    } catch (IOException e) {
      throw new EnvironmentException("cannot connect to the snapds server of " + home + " (pid " + server.pid()
          + "): " + e.getMessage(), e);
    }
    try {
      return new ServerEnvironment(home, commandLock, connection,
          TxServiceConnection.connect(server.zookeeperQuorum(), conf));
    } catch (RuntimeException e) {
      closeQuietly(connection);
      throw e;
    }
  }

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public TransactionSystemClient txClient() {
    return tephra.client();
  }

  @Override
  public String description() {
    return "embedded HBase in " + home;
  }

  @Override
  public void close() {
    closeQuietly(connection);
    closeQuietly(tephra);
    commandLock.close();
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing anyway
    }
  }
}
