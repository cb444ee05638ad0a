package io.snapds.cli.env;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a directory that only one process may use at a time: the home directory
 * of the embedded HBase (two would corrupt its files), or the state directory of a local Tephra
 * manager ({@code --local-tx DIR}: two managers over one edit log would hand out the same write
 * pointers and overwrite each other's state). Released on {@link #close()} or when the process
 * ends.
 */
final class HomeLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private HomeLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static HomeLock acquire(Path home) {
    return acquire(home, "snapds home", "use another --home");
  }

  /** Locks {@code home}; {@code what} names it in the error, {@code advice} says what else to do. */
  static HomeLock acquire(Path home, String what, String advice) {
    Path file = home.resolve("in-use.lock");
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
        String holder = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
        channel.close();
        throw new EnvironmentException(what + " " + home + " is in use by another snapds process"
            + (holder.isEmpty() ? "" : " (" + holder + ")") + "; wait for it, or " + advice);
      }
      channel.truncate(0);
      channel.write(java.nio.ByteBuffer.wrap(("pid " + ProcessHandle.current().pid())
          .getBytes(StandardCharsets.UTF_8)));
      return new HomeLock(channel, lock);
    } catch (IOException e) {
      throw new EnvironmentException("cannot use " + what + " " + home + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      // the lock goes with the process anyway
    }
  }
}
