package io.snapds.cli.server;

import io.snapds.cli.env.EnvironmentException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * What a running home server announces in {@code server.properties} of its home, once HBase and
 * Tephra answer: its process (pid and start time, so that a reused pid is not taken for it) and
 * the loopback ZooKeeper port through which clients find HBase and Tephra's transaction service,
 * the loopback port and token of its {@link CommandService} (the file is readable by its owner only),
 * the loopback port of its {@link MetricsEndpoint} (0: none) and of its {@link StatusPage} (0: none;
 * it takes the command service's token).
 * The server writes it atomically when it is ready and deletes it as the first step of stopping.
 */
public record ServerInfo(long pid, Instant processStart, int zookeeperPort, long build, int commandPort,
    String commandToken, int metricsPort, int pagePort) {
  static final String FILE = "server.properties";

  static ServerInfo ofThisProcess(int zookeeperPort, CommandService commands, MetricsEndpoint metrics,
      StatusPage page) {
    ProcessHandle self = ProcessHandle.current();
    return new ServerInfo(self.pid(), self.info().startInstant().orElse(Instant.EPOCH), zookeeperPort, currentBuild(),
        commands.port(), commands.token(), metrics == null ? 0 : metrics.port(), page == null ? 0 : page.port());
  }

  /**
   * Which build of the code this process runs: the newest modification time of the jars (or class
   * directories) of the command line and the core. A server of another build was started before a
   * rebuild and may load classes from jars that changed under it, so a command replaces it.
   */
  static long currentBuild() {
    long newest = 0;
    for (Class<?> c : new Class<?>[] {ServerInfo.class, io.snapds.dataset.SnapshotDatasets.class}) {
      try {
        newest = Math.max(newest, Files.getLastModifiedTime(
            Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())).toMillis());
      } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
        // unknown: compare what is known
      }
    }
    return newest;
  }

  /**
   * The announced server, if the file is there and complete.
   *
   * @throws EnvironmentException if the file is there but not to be trusted ({@link #distrust})
   */
  static Optional<ServerInfo> read(Path home) {
    Optional<String> why = distrust(home);
    if (why.isPresent()) {
      throw new EnvironmentException("not trusting the server announced in " + home.resolve(FILE) + ": " + why.get()
          + " (only the user's own server writes it, mode 600, in a home other users cannot write in; "
          + "if the file is yours, delete it)");
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(home.resolve(FILE), StandardCharsets.UTF_8)) {
      p.load(in);
      return Optional.of(new ServerInfo(Long.parseLong(p.getProperty("pid")),
          Instant.parse(p.getProperty("process.start")), Integer.parseInt(p.getProperty("zookeeper.port")),
          Long.parseLong(p.getProperty("build", "0")), Integer.parseInt(p.getProperty("command.port", "0")),
          p.getProperty("command.token", ""), Integer.parseInt(p.getProperty("metrics.port", "0")),
          Integer.parseInt(p.getProperty("page.port", "0"))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // half written by a server that crashed while announcing: not a server
    }
  }

  void write(Path home) throws IOException {
    Properties p = new Properties();
    p.setProperty("pid", Long.toString(pid));
    p.setProperty("process.start", processStart.toString());
    p.setProperty("zookeeper.port", Integer.toString(zookeeperPort));
    p.setProperty("build", Long.toString(build));
    p.setProperty("command.port", Integer.toString(commandPort));
    p.setProperty("command.token", commandToken);
    p.setProperty("metrics.port", Integer.toString(metricsPort));
    p.setProperty("page.port", Integer.toString(pagePort));
    Path tmp = home.resolve(FILE + ".tmp");
    Files.deleteIfExists(tmp);
    try {
      // the token lets whoever reads it run commands as this user: owner only
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      Files.createFile(tmp);
    }
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      p.store(out, "the snapds server of this home (written when it is ready, deleted when it stops)");
    }
    try {
      Files.move(tmp, home.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, home.resolve(FILE), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * Why {@code server.properties} of {@code home} could have been written by someone other than
   * this user's server, if it could: the file or the home belongs to another user, the file is a
   * link or readable by others, or others may write in the home (and so replace the file). Whoever
   * could write it would receive the commands' arguments and could forge their output. Empty when
   * there is no file, or the file system has no POSIX owners and modes to check.
   */
  static Optional<String> distrust(Path home) {
    Path file = home.resolve(FILE);
    try {
      String me = ProcessHandle.current().info().user().orElse(System.getProperty("user.name"));
      PosixFileAttributes dir = Files.readAttributes(home, PosixFileAttributes.class);
      if (!dir.owner().getName().equals(me)) {
        return Optional.of(home + " belongs to " + dir.owner().getName() + ", not to " + me);
      }
      if (dir.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
        return Optional.of("other users may write in " + home + " (" + PosixFilePermissions.toString(dir.permissions())
            + ")");
      }
      PosixFileAttributes attrs = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attrs.isRegularFile()) {
        return Optional.of("it is not a regular file");
      }
      if (!attrs.owner().getName().equals(me)) {
        return Optional.of("it belongs to " + attrs.owner().getName() + ", not to " + me);
      }
      if (!attrs.permissions().equals(java.util.EnumSet.of(PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE))) {
        return Optional.of("its mode is " + PosixFilePermissions.toString(attrs.permissions()) + ", not rw-------");
      }
      return Optional.empty();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (UnsupportedOperationException e) {
      return Optional.empty(); // no POSIX file system: nothing to check
    } catch (IOException e) {
      return Optional.of("cannot read its owner and mode: " + e.getMessage());
    }
  }

  static void delete(Path home) {
    try {
      Files.deleteIfExists(home.resolve(FILE));
    } catch (IOException e) {
      // a stale file is recognised by its dead pid
    }
  }

  /**
   * The server's process, if it still runs: the same pid and start time, this user's, and running
   * {@code io.snapds.cli.Main server run} (where the system tells the command line).
   */
  public Optional<ProcessHandle> process() {
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
        .filter(h -> h.info().startInstant().map(processStart::equals).orElse(true))
        .filter(h -> h.info().user().equals(ProcessHandle.current().info().user()))
        .filter(h -> h.info().arguments().map(ServerInfo::runsServer).orElse(true));
  }

  private static boolean runsServer(String[] args) {
    for (int i = 0; i + 2 < args.length; i++) {
      if (args[i].equals("io.snapds.cli.Main") && args[i + 1].equals("server") && args[i + 2].equals("run")) {
        return true;
      }
    }
    return false;
  }

  /** Where the server's dataset metrics are scraped (Prometheus text format, loopback only), if it serves them. */
  public Optional<String> metricsUrl() {
    return metricsPort > 0 ? Optional.of("http://127.0.0.1:" + metricsPort + MetricsEndpoint.PATH) : Optional.empty();
  }

  /**
   * Where the server's status page is opened, if it serves one: the address carries the token, so
   * it is for this user's eyes only, like {@code server.properties}.
   */
  public Optional<String> pageUrl() {
    return pagePort > 0 ? Optional.of(StatusPage.url(pagePort, commandToken)) : Optional.empty();
  }

  public String zookeeperQuorum() {
    return "localhost:" + zookeeperPort;
  }
}
