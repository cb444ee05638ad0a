package io.snapds.cli.server;

import io.snapds.cli.env.EnvironmentException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The lock on {@code commands.lock} of a home: every command that runs on the home server holds
 * it shared for as long as it runs; the server takes it exclusively when it stops, so that a stop
 * waits for running commands (a load finishes and publishes, or fails and aborts, before HBase
 * goes away). A command also touches the file, which tells the server when it was last used.
 */
final class CommandLock implements AutoCloseable {
  static final String FILE = "commands.lock";

  /**
   * File locks belong to the process, and the JVM refuses a second lock of the same file: commands
   * of one process on one home (tests, a program calling the command line twice) share one lock.
   */
  private static final Map<Path, Shared> SHARED = new HashMap<>();

  private final FileChannel channel;
  private final FileLock lock;
  private final Runnable release;

  private CommandLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
    this.release = this::releaseFile;
  }

  private CommandLock(Runnable release) {
    this.channel = null;
    this.lock = null;
    this.release = release;
  }

  private static final class Shared {
    final CommandLock file;
    int holders;

    Shared(CommandLock file) {
      this.file = file;
    }
  }

  /** Holds the lock shared; waits while a server holds it exclusively (it is stopping). */
  static CommandLock shared(Path home) {
    Path key = home.toAbsolutePath().normalize();
    Shared shared;
    synchronized (SHARED) {
      shared = SHARED.get(key);
      if (shared == null) {
        shared = new Shared(open(home, true, true).orElseThrow());
        SHARED.put(key, shared);
      }
      shared.holders++;
    }
    shared.file.touch();
    Shared held = shared;
    return new CommandLock(() -> {
      synchronized (SHARED) {
        if (--held.holders == 0) {
          SHARED.remove(key);
          held.file.close();
        }
      }
    });
  }

  /**
   * Sets the file's modification time by writing through the locked channel: opening and closing
   * the file in any other way (even {@code Files.setLastModifiedTime}) would release this process's
   * POSIX lock on it.
   */
  private void touch() {
    try {
      channel.write(ByteBuffer.wrap(new byte[] {'.'}), 0);
    } catch (IOException e) {
      // only the idle timer reads it
    }
  }

  /** Holds the lock exclusively, waiting until no command runs. */
  static CommandLock exclusive(Path home) {
    return open(home, false, true).orElseThrow();
  }

  /** The exclusive lock if no command runs now. */
  static Optional<CommandLock> tryExclusive(Path home) {
    return open(home, false, false);
  }

  static Instant lastUsed(Path home) {
    try {
      return Files.getLastModifiedTime(home.resolve(FILE)).toInstant();
    } catch (IOException e) {
      return Instant.EPOCH;
    }
  }

  private static Optional<CommandLock> open(Path home, boolean shared, boolean wait) {
    try {
      Files.createDirectories(home);
      FileChannel channel = FileChannel.open(home.resolve(FILE), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE, StandardOpenOption.READ);
      try {
        FileLock lock = wait ? channel.lock(0, Long.MAX_VALUE, shared) : channel.tryLock(0, Long.MAX_VALUE, shared);
        if (lock == null) {
          channel.close();
          return Optional.empty();
        }
        return Optional.of(new CommandLock(channel, lock));
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    } catch (IOException e) {
      throw new EnvironmentException("cannot lock " + home.resolve(FILE) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    release.run();
  }

  private void releaseFile() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      // the lock goes with the channel
    }
  }
}
