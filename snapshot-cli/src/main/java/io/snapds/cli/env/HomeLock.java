package io.snapds.cli.env;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on the home directory: one embedded HBase at a time may use its files (two
 * would corrupt them). Released on {@link #close()} or when the process ends.
 */
final class HomeLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private HomeLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static HomeLock acquire(Path home) {
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
        throw new EnvironmentException("snapds home " + home + " is in use by another snapds process"
            + (holder.isEmpty() ? "" : " (" + holder + ")") + "; wait for it, or use another --home");
      }
      channel.truncate(0);
      channel.write(java.nio.ByteBuffer.wrap(("pid " + ProcessHandle.current().pid())
          .getBytes(StandardCharsets.UTF_8)));
      return new HomeLock(channel, lock);
    } catch (IOException e) {
      throw new EnvironmentException("cannot use snapds home " + home + ": " + e.getMessage(), e);
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
