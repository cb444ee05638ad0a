package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the home server and the launcher trust (issue #42), through the launcher and a real server
 * process: the server listens on loopback only, even where the host name resolves to the
 * machine's network address; an {@code @argfile} is read in the client's directory, not the
 * server's; and the launcher sends a command only to the server that {@code server.properties}
 * names when that file and its process can only be the user's own server, so a process that took
 * the port of a crashed server (here a fake that forges output) receives nothing.
 */
class ServerTrustTest {
  private static final String VERSION = "snapds 0.1.0\n";

  @TempDir
  static Path tmp;

  private static Path home;
  private static Launcher launcher;
  private static ServerSocket fake;
  private static final AtomicInteger FAKE_CONNECTIONS = new AtomicInteger();

  /**
   * Starts the server in {@code tmp} (its working directory) with a hosts file in which the host
   * name resolves to a network address of this machine, as on most machines (on this test's
   * machine it may resolve to loopback, which would hide a server that binds to the host name).
   */
  @BeforeAll
  static void startServer() throws Exception {
    home = tmp.resolve("home");
    launcher = new Launcher(tmp);
    Optional<InetAddress> network = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
        .filter(i -> {
          try {
            return i.isUp() && !i.isLoopback();
          } catch (SocketException e) {
            return false;
          }
        })
        .flatMap(i -> Collections.list(i.getInetAddresses()).stream())
        .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
        .findFirst();
    Map<String, String> env = Map.of();
    if (network.isPresent()) {
      Path hosts = tmp.resolve("hosts");
      String name = InetAddress.getLocalHost().getHostName();
      Files.writeString(hosts, "127.0.0.1 localhost\n" + network.get().getHostAddress() + " " + name + "\n");
      env = Map.of("SNAPDS_SERVER_JAVA_OPTS", "-Djdk.net.hosts.file=" + hosts);
    }
    Cli.Result start = launcher.start("start", env, "--home", home.toString(), "server", "start").result();
    assertEquals(0, start.exitCode(), start.toString());
    Cli.Result create = snapds("create", "shop:real");
    assertEquals(0, create.exitCode(), create.toString());

    fake = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread forger = new Thread(ServerTrustTest::forge, "fake-server");
    forger.setDaemon(true);
    forger.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (fake != null) {
      fake.close();
    }
    launcher.run("--home", home.toString(), "server", "stop");
  }

  private static Cli.Result snapds(String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("--home", home.toString()));
    all.addAll(List.of(args));
    return launcher.run(all.toArray(String[]::new));
  }

  /** Answers every command line as the server would, with output the user did not ask for. */
  private static void forge() {
    while (!fake.isClosed()) {
      try (Socket s = fake.accept()) {
        FAKE_CONNECTIONS.incrementAndGet();
        InputStream in = s.getInputStream();
        for (int i = 0; i < 3; i++) {
          readString(in); // the token, the working directory, the home
        }
        int n = Integer.parseInt(readString(in));
        for (int i = 0; i < n; i++) {
          readString(in);
        }
        OutputStream out = s.getOutputStream();
        out.write("A\nO7\nforged\nX0\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (IOException | RuntimeException e) {
        // closed, or a launcher that went away
      }
    }
  }

  private static String readString(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) > 0) {
      buf.write(b);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  private static Properties announcement() throws IOException {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(home.resolve("server.properties"))) {
      p.load(in);
    }
    return p;
  }

  /** Writes {@code p} as server.properties with the given mode, as a server (or an impostor) would. */
  private static void announce(Properties p, String mode) throws IOException {
    Path file = home.resolve("server.properties");
    try (var out = Files.newBufferedWriter(file)) {
      p.store(out, null);
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
  }

  /** The addresses the process listens on (TCP), from the kernel's tables of its sockets. */
  private static List<InetAddress> listening(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException closedMeanwhile) {
          // not a socket any more
        }
      }
    }
    List<InetAddress> addresses = new ArrayList<>();
    for (String table : List.of("tcp", "tcp6")) {
      Path file = Path.of("/proc", Long.toString(pid), "net", table);
      if (!Files.exists(file)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file);
      for (String line : lines.subList(1, lines.size())) {
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        String[] f = line.trim().split("\\s+");
        if (f[3].equals("0A") && inodes.contains(f[9])) { // 0A: LISTEN
          addresses.add(address(f[1].substring(0, f[1].indexOf(':'))));
        }
      }
    }
    return addresses;
  }

  /** An address as the kernel prints it: hexadecimal 32-bit words in host (little-endian) order. */
  private static InetAddress address(String hex) throws IOException {
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        int at = word * 8 + (3 - i) * 2;
        bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    return InetAddress.getByAddress(bytes);
  }

  @Test
  void theServerListensOnLoopbackOnly() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs Linux's /proc");
    long pid = Long.parseLong(announcement().getProperty("pid"));
    List<InetAddress> addresses = listening(pid);
    // ZooKeeper, the master, the region server, Tephra, the command port
    assertTrue(addresses.size() >= 5, "the server's listening sockets: " + addresses);
    assertTrue(addresses.stream().allMatch(InetAddress::isLoopbackAddress),
        "the server listens on " + addresses);
  }

  @Test
  void anArgFileIsReadInTheClientsDirectory() throws Exception {
    Path client = Files.createDirectories(tmp.resolve("client"));
    Files.writeString(tmp.resolve("cmd.args"), "history\nshop:decoy\n"); // in the server's directory
    Files.writeString(client.resolve("cmd.args"), "history\nshop:real\n--json\n");
    Cli.Result r = new Launcher(client).run("--home", home.toString(), "@cmd.args");
    assertEquals(0, r.exitCode(), r.toString());
    assertEquals("[]", r.out().trim(), r.toString());
  }

  @Test
  void theLauncherSendsNothingToAnAnnouncementThatIsNotTheUsersOwnServers() throws Exception {
    Properties real = announcement();
    Properties forged = new Properties();
    forged.putAll(real);
    forged.setProperty("command.port", Integer.toString(fake.getLocalPort()));
    try {
      // the control: as the user's own server wrote it (owner only, its live process), it is trusted
      announce(forged, "rw-------");
      Cli.Result control = snapds("--version");
      assertEquals("forged\n", control.out(), "the fake receives what the launcher trusts: " + control);
      int before = FAKE_CONNECTIONS.get();

      Process dead = new ProcessBuilder("true").start();
      dead.waitFor();
      forged.setProperty("pid", Long.toString(dead.pid()));
      announce(forged, "rw-------");
      Cli.Result crashed = snapds("-v", "--version");
      assertEquals(VERSION, crashed.out(), "a dead pid: " + crashed);
      assertTrue(crashed.err().contains("is not running"), crashed.toString());

      forged.setProperty("pid", Long.toString(ProcessHandle.current().pid())); // alive, not the server
      announce(forged, "rw-------");
      Cli.Result other = snapds("-v", "--version");
      assertEquals(VERSION, other.out(), "a live process that is not the server: " + other);
      assertTrue(other.err().contains("is not the snapds server"), other.toString());

      forged.setProperty("pid", real.getProperty("pid"));
      announce(forged, "rw-r--r--");
      Cli.Result readable = snapds("-v", "--version");
      assertEquals(VERSION, readable.out(), "a file others can read: " + readable);
      assertTrue(readable.err().contains("not 600"), readable.toString());

      announce(forged, "rw-------");
      Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
      try {
        Cli.Result open = snapds("--version");
        assertEquals(VERSION, open.out(), "a home others can write in: " + open);
      } finally {
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      assertEquals(before, FAKE_CONNECTIONS.get(), "the fake received a command line");

      // a command in its own JVM refuses it too, rather than connect to the ZooKeeper it names
      announce(real, "rw-r--r--");
      Cli.Result own = launcher.start("own", Map.of("SNAPDS_THIN", "off"), "--home", home.toString(), "history",
          "shop:real").result();
      assertNotEquals(0, own.exitCode(), own.toString());
      assertTrue(own.err().contains("not trusting the server announced in " + home.resolve("server.properties")),
          own.toString());
    } finally {
      announce(real, "rw-------");
    }
    Cli.Result after = snapds("history", "shop:real", "--json");
    assertEquals(0, after.exitCode(), after.toString());
    assertFalse(after.out().contains("forged"), after.toString());
  }
}
