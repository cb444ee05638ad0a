package io.snapds.cli.env;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock on a directory that only one process may use at a time: the home directory
 * of the embedded HBase (two would corrupt its files), or the state directory of a local Tephra
 * manager ({@code --local-tx DIR}: two managers over one edit log would hand out the same write
 * pointers and overwrite each other's state). Released on {@link #close()} or when the process
 * ends.
 */
public final class HomeLock implements AutoCloseable {
  /**
   * Homes whose lock this process holds. POSIX locks belong to the process, and closing any file
   * descriptor of the file releases them: this process must not open the lock file again.
   */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path home;
  private final FileChannel channel;
  private final FileLock lock;

  private HomeLock(Path home, FileChannel channel, FileLock lock) {
    this.home = home;
    this.channel = channel;
    this.lock = lock;
  }

  public static HomeLock acquire(Path home) {
    return acquire(home, "snapds home", "use another --home");
  }

  /** Locks {@code home}; {@code what} names it in the error, {@code advice} says what else to do. */
  static HomeLock acquire(Path home, String what, String advice) {
    return tryAcquire(home, what).orElseThrow(() -> {
      String holder = holder(home);
      return new EnvironmentException(what + " " + home + " is in use by another snapds process"
          + (holder.isEmpty() ? "" : " (" + holder + ")") + "; wait for it, or " + advice);
    });
  }

  /** The lock of a snapds home, or empty when another process (or this one) holds it. */
  public static Optional<HomeLock> tryAcquire(Path home) {
    return tryAcquire(home, "snapds home");
  }

  private static Optional<HomeLock> tryAcquire(Path home, String what) {
    Path file = home.resolve("in-use.lock");
    if (HELD.contains(home.toAbsolutePath().normalize())) {
      return Optional.empty();
    }
    try {
      Files.createDirectories(home);
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.READ);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (java.nio.channels.OverlappingFileLockException e) {
        lock = null; // this process holds it already
      }
      if (lock == null) {
        channel.close();
        return Optional.empty();
      }
      channel.truncate(0);
      channel.write(java.nio.ByteBuffer.wrap(("pid " + ProcessHandle.current().pid())
          .getBytes(StandardCharsets.UTF_8)));
      HELD.add(home.toAbsolutePath().normalize());
      return Optional.of(new HomeLock(home.toAbsolutePath().normalize(), channel, lock));
    } catch (IOException e) {
      throw new EnvironmentException("cannot use " + what + " " + home + ": " + e.getMessage(), e);
    }
  }

  /** What the holder wrote into the lock file ("pid 1234"), or "" if nothing. */
  public static String holder(Path home) {
    if (HELD.contains(home.toAbsolutePath().normalize())) {
      return "pid " + ProcessHandle.current().pid() + ", this process";
    }
    try {
      return new String(Files.readAllBytes(home.resolve("in-use.lock")), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
      HELD.remove(home);
    } catch (IOException e) {
      // the lock goes with the process anyway
    }
  }
}
