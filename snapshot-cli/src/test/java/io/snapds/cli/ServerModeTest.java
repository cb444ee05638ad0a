package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The home server, through the launcher in real processes: commands started together start one
 * server and share it, {@code server stop} waits for a running load (which publishes all its
 * rows), and a killed server is replaced by the next command with nothing committed lost. The
 * steps share one home and run in order (each server start costs 10 to 40 s on this machine).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServerModeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path tmp;

  private static Path home;
  private static Launcher launcher;

  @BeforeAll
  static void setUp() {
    home = tmp.resolve("home");
    launcher = new Launcher(tmp);
  }

  @AfterAll
  static void stopServer() throws Exception {
    launcher.run("--home", home.toString(), "server", "stop");
  }

  private static Cli.Result snapds(String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("--home", home.toString()));
    all.addAll(List.of(args));
    return launcher.run(all.toArray(String[]::new));
  }

  private static Launcher.Running start(String name, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("--home", home.toString()));
    all.addAll(List.of(args));
    return launcher.start(name, all.toArray(String[]::new));
  }

  private static long serverPid() throws IOException {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(home.resolve("server.properties"))) {
      p.load(in);
    }
    return Long.parseLong(p.getProperty("pid"));
  }

  /** How many servers announced themselves ready in this home's log, over the whole test. */
  private static long serversStarted() throws IOException {
    try (Stream<String> lines = Files.lines(home.resolve("logs/server.log"))) {
      return lines.filter(l -> l.contains("server.HomeServer: snapds server of") && l.contains(" ready in ")).count();
    }
  }

  private static Path csv(String name, int rows) throws IOException {
    Path file = tmp.resolve(name);
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write("id,v\n");
      for (int i = 0; i < rows; i++) {
        w.write(String.format("k%07d,%d%n", i, i));
      }
    }
    return file;
  }

  private static JsonNode history(String dataset) throws Exception {
    Cli.Result r = snapds("history", dataset, "--json");
    assertEquals(0, r.exitCode(), r.toString());
    return JSON.readTree(r.out());
  }

  @Test
  @Order(1)
  void twoCommandsStartedTogetherOnAColdHomeShareOneServer() throws Exception {
    Launcher.Running a = start("a", "create", "shop:a");
    Launcher.Running b = start("b", "create", "shop:b");
    Cli.Result ra = a.result();
    Cli.Result rb = b.result();
    assertEquals(0, ra.exitCode(), ra.toString());
    assertEquals(0, rb.exitCode(), rb.toString());

    Path file = csv("small.csv", 500);
    Launcher.Running la = start("la", "load", "shop:a", file.toString(), "--key", "id");
    Launcher.Running lb = start("lb", "load", "shop:b", file.toString(), "--key", "id");
    assertEquals(0, la.result().exitCode(), la.result().toString());
    assertEquals(0, lb.result().exitCode(), lb.result().toString());
    for (String ds : List.of("shop:a", "shop:b")) {
      JsonNode snapshots = history(ds);
      assertEquals(1, snapshots.size(), snapshots.toString());
      assertEquals(500, snapshots.get(0).get("rows").asLong(), snapshots.toString());
    }
    assertEquals(1, serversStarted(), "one server for all six commands");
    Cli.Result status = snapds("server", "status");
    assertEquals(0, status.exitCode(), status.toString());
    assertTrue(status.out().contains("is running (pid " + serverPid()), status.toString());
  }

  @Test
  @Order(2)
  void serverStopDuringALoadWaitsUntilItHasPublished() throws Exception {
    Path file = csv("big.csv", 150_000);
    Launcher.Running load = start("big", "load", "shop:a", file.toString(), "--key", "id", "--run-id", "big",
        "--progress");
    while (!Files.readString(load.err()).contains("loading:")) { // it writes: the command runs on the server
      assertTrue(load.process().isAlive(), "the load ended before it wrote: " + Files.readString(load.err()));
      Thread.sleep(100);
    }
    Cli.Result stop = snapds("server", "stop");
    assertEquals(0, stop.exitCode(), stop.toString());
    // the load releases the command lock when it has published, a moment before its JVM exits:
    // that it published every row below (HBase was up until then) is what shows the stop waited
    Cli.Result loaded = load.result();
    assertEquals(0, loaded.exitCode(), loaded.toString());
    assertEquals(ExitCodes.NOT_FOUND, snapds("server", "status").exitCode());

    JsonNode snapshots = history("shop:a"); // starts a new server over the same files
    assertEquals("big", snapshots.get(0).get("runId").asText(), snapshots.toString());
    assertEquals(150_000, snapshots.get(0).get("rows").asLong(), snapshots.toString());
    assertEquals("COMMITTED", snapshots.get(0).get("state").asText(), snapshots.toString());
    Cli.Result scan = snapds("scan", "shop:a", "--start", "k0149998", "--json");
    assertEquals(2, scan.outLines().size(), scan.toString());
  }

  /** The pid in the home's announcement, 0 while there is none. */
  private static long announcedPid() {
    try {
      return serverPid();
    } catch (IOException | RuntimeException e) {
      return 0; // none, or deleted by a starting server while read
    }
  }

  private static String announced(String key) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(home.resolve("server.properties"))) {
      p.load(in);
    }
    return p.getProperty(key);
  }

  /** The sessions that own an ephemeral node in the home server's ZooKeeper (on {@code port}). */
  private static Set<Long> ephemeralOwners(int port) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper("127.0.0.1:" + port, 30_000, e -> {
      if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    });
    try {
      assertTrue(connected.await(1, TimeUnit.MINUTES), "no ZooKeeper on port " + port);
      Set<Long> owners = new HashSet<>();
      Deque<String> paths = new ArrayDeque<>(List.of("/"));
      while (!paths.isEmpty()) {
        String path = paths.pop();
        Stat stat = zk.exists(path, false);
        if (stat == null) {
          continue; // deleted meanwhile
        }
        if (stat.getEphemeralOwner() != 0) {
          owners.add(stat.getEphemeralOwner());
        }
        try {
          for (String child : zk.getChildren(path, false)) {
            paths.push(path.equals("/") ? "/" + child : path + "/" + child);
          }
        } catch (KeeperException.NoNodeException e) {
          // deleted meanwhile
        }
      }
      return owners;
    } finally {
      zk.close();
    }
  }

  @Test
  @Order(3)
  void aKilledServerIsReplacedByTheNextCommandAndKeepsWhatWasCommitted() throws Exception {
    long before = history("shop:b").get(0).get("id").asLong();
    long pid = serverPid();
    // the killed server's sessions: HBase's master and region server, Tephra's leader election and discovery
    Set<Long> killedSessions = ephemeralOwners(Integer.parseInt(announced("zookeeper.port")));
    assertTrue(killedSessions.size() >= 2, killedSessions.toString());
    ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
    server.destroyForcibly(); // SIGKILL: no shutdown hook, no flush, the announcement stays behind
    server.onExit().get();
    assertTrue(Files.exists(home.resolve("server.properties")), "a crashed server leaves its announcement");

    Launcher.Running next = start("next", "history", "shop:b", "--json");
    // the command starts a new server over the same files; when that one announces itself ready, no
    // node of the killed one's sessions is left in its ZooKeeper (they would keep the new master from
    // becoming active, and send Tephra's clients to the dead service, until they time out)
    while (announcedPid() == pid || announcedPid() == 0) {
      assertTrue(next.process().isAlive(), "the command ended before a server announced itself: "
          + Files.readString(next.err()));
      Thread.sleep(100);
    }
    Set<Long> left = new HashSet<>(ephemeralOwners(Integer.parseInt(announced("zookeeper.port"))));
    left.retainAll(killedSessions);
    assertEquals(Set.of(), left, "sessions of the killed server still own nodes");
    Cli.Result history = next.result();
    assertEquals(0, history.exitCode(), history.toString());
    JsonNode snapshots = JSON.readTree(history.out());
    assertEquals(before, snapshots.get(0).get("id").asLong(), snapshots.toString());
    assertEquals(500, snapshots.get(0).get("rows").asLong());
    assertNotEquals(pid, serverPid(), "a new server");
    Cli.Result scan = snapds("scan", "shop:b", "--limit", "3");
    assertEquals(List.of("KEY       d:v", "k0000000  0", "k0000001  1", "k0000002  2"), scan.outLines(), scan.toString());
  }

  /** Lines of the server log that say a command ran inside the server (no JVM of its own). */
  private static long commandsRunInServer() throws IOException {
    try (Stream<String> lines = Files.lines(home.resolve("logs/server.log"))) {
      return lines.filter(l -> l.contains("command run in the server: exit ")).count();
    }
  }

  private static Cli.Result ownJvm(String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("--home", home.toString()));
    all.addAll(List.of(args));
    return launcher.start("own", java.util.Map.of("SNAPDS_THIN", "off"), all.toArray(String[]::new)).result();
  }

  @Test
  @Order(4)
  void aWarmServerRunsCommandsItselfAndTheyAnswerAsInTheirOwnJvm() throws Exception {
    history("shop:b"); // warm: the server of the last step runs
    long before = commandsRunInServer();
    List<String[]> commands = List.of(new String[] {"history", "shop:b", "--json"},
        new String[] {"scan", "shop:b", "--limit", "3"}, new String[] {"show", "shop:nosuch"},
        new String[] {"history"}, new String[] {"--help"});
    for (String[] args : commands) {
      Cli.Result inServer = snapds(args);
      Cli.Result own = ownJvm(args);
      assertEquals(own.exitCode(), inServer.exitCode(), String.join(" ", args) + ": " + inServer + " / " + own);
      assertEquals(own.out(), inServer.out(), String.join(" ", args));
      assertEquals(own.err(), inServer.err(), String.join(" ", args));
    }
    assertEquals(ExitCodes.NOT_FOUND, snapds("show", "shop:nosuch").exitCode());
    assertEquals(before + commands.size() + 1, commandsRunInServer(), "each command ran inside the server");

    // the server serves the metrics of the datasets its commands opened, on loopback, where status says
    String status = snapds("server", "status").out();
    java.util.regex.Matcher url = java.util.regex.Pattern.compile("metrics at (http://127\\.0\\.0\\.1:[0-9]+/metrics)")
        .matcher(status);
    assertTrue(url.find(), status);
    java.net.http.HttpResponse<String> scrape = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url.group(1))).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, scrape.statusCode());
    assertTrue(scrape.body().contains("snapds_reader_pins{dataset=\"shop:b\"}"), scrape.body());
    // and its status page, behind the command service's token, which the address status prints carries
    java.util.regex.Matcher page = java.util.regex.Pattern.compile(
        "status page at (http://127\\.0\\.0\\.1:[0-9]+/)\\?token=([0-9a-f]{32})").matcher(status);
    assertTrue(page.find(), status);
    java.net.http.HttpRequest.Builder datasets = java.net.http.HttpRequest.newBuilder(
        java.net.URI.create(page.group(1) + "api/datasets"));
    assertEquals(401, java.net.http.HttpClient.newHttpClient().send(datasets.build(),
        java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode(), "no token, no data");
    java.net.http.HttpResponse<String> listed = java.net.http.HttpClient.newHttpClient().send(
        datasets.header("Cookie", io.snapds.cli.server.StatusPage.COOKIE + "=" + page.group(2)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, listed.statusCode(), listed.body());
    assertTrue(listed.body().contains("\"dataset\":\"shop:b\""), listed.body());

    // several at once, and a load (its own JVM, reading a file) meanwhile
    Launcher.Running load = start("l2", "load", "shop:b", csv("again.csv", 20).toString(), "--key", "id");
    List<Launcher.Running> running = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      running.add(start("p" + i, "history", "shop:b", "--json"));
    }
    for (Launcher.Running r : running) {
      Cli.Result result = r.result();
      assertEquals(0, result.exitCode(), result.toString());
      assertTrue(JSON.readTree(result.out()).size() >= 1, result.toString());
    }
    assertEquals(0, load.result().exitCode(), load.result().toString());
    assertEquals(20, history("shop:b").get(0).get("rows").asLong());
    assertEquals(before + commands.size() + 1 + 4 + 1, commandsRunInServer(), "the load ran in its own JVM");

    // a file named relative to the client's directory is read there: that command runs in its own JVM
    Files.writeString(tmp.resolve("typed.schema"), "id long key, name string");
    Cli.Result typed = snapds("create", "shop:typed", "--schema-file", "typed.schema");
    assertEquals(0, typed.exitCode(), typed.toString());
    assertEquals(before + commands.size() + 1 + 4 + 1, commandsRunInServer(), "create --schema-file ran in its own JVM");
  }
}
