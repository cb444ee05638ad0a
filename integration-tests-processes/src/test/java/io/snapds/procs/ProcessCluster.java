package io.snapds.procs;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A cluster of separate JVM processes on loopback, started from one class path (the test's, or
 * the one Maven wrote to {@code target/cluster.classpath} for {@code start-cluster.sh}): the one
 * description of the test bed, used by the integration test and by the scripts alike.
 *
 * <ul>
 *   <li>{@code zookeeper}: {@code ZooKeeperServerMain}, data in {@code DIR/zookeeper};
 *   <li>{@code dfs}: HDFS, a MiniDFSCluster in its own process ({@link DfsProcess}), data in
 *       {@code DIR/dfs}: HBase's root directory and write-ahead logs;
 *   <li>{@code master}: {@code HMaster start};
 *   <li>{@code rs1}, {@code rs2}: {@code HRegionServer start};
 *   <li>{@code tx}: Tephra's transaction service ({@link TxServiceProcess}), state in {@code DIR/tx}.
 * </ul>
 *
 * Every port is chosen free at start; HBase's servers read {@code DIR/conf/hbase-site.xml}; each
 * process logs to {@code DIR/logs/NAME.log}. Heaps: 96 MiB for ZooKeeper, 256 MiB for HDFS and
 * Tephra, 384 MiB for the master and 512 MiB for each region server, all with the serial collector
 * (the machine the suite runs on has two cores). Clients need only {@link #zookeeper()}: HBase and
 * the transaction service are both found through it.
 */
public final class ProcessCluster implements AutoCloseable {
  /** How long one process may take to become ready. */
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  /** How long a stopped process may take to end before it is killed. */
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final Path dir;
  private final String classpath;
  private final List<String> jvmFlags;
  private final int zkPort;
  private final int nameNodePort;
  private final int txPort;
  private final Map<String, Process> processes = new LinkedHashMap<>();
  private final Map<Integer, String> regionServerPorts = new java.util.concurrent.ConcurrentHashMap<>();

  private ProcessCluster(Path dir, String classpath, List<String> jvmFlags) throws IOException {
    this.dir = dir.toAbsolutePath().normalize();
    this.classpath = classpath;
    this.jvmFlags = jvmFlags;
    zkPort = freePort();
    nameNodePort = freePort();
    txPort = freePort();
  }

  /**
   * Starts every process in {@code dir} (emptied first) and waits until HBase has both region
   * servers and the transaction service answers.
   *
   * @param jvmFlags flags for every JVM (HBase and HDFS on JDK 17 need their {@code --add-opens})
   */
  public static ProcessCluster start(Path dir, String classpath, List<String> jvmFlags) throws Exception {
    deleteRecursively(dir);
    Files.createDirectories(dir.resolve("logs"));
    Files.createDirectories(dir.resolve("conf"));
    ProcessCluster cluster = new ProcessCluster(dir, classpath, jvmFlags);
    try {
      cluster.startAll();
      return cluster;
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }

  private void startAll() throws Exception {
    int masterPort = freePort();
    writeConfiguration(masterPort);
    Files.createDirectories(dir.resolve("zookeeper"));
    launch("zookeeper", "-Xmx96m", List.of("-Dzookeeper.admin.enableServer=false"),
        "org.apache.zookeeper.server.ZooKeeperServerMain", String.valueOf(zkPort), dir.resolve("zookeeper").toString());
    Files.createDirectories(dir.resolve("dfs"));
    launch("dfs", "-Xmx256m", List.of(), DfsProcess.class.getName(), String.valueOf(nameNodePort),
        dir.resolve("dfs").toString());
    awaitPort("zookeeper", zkPort);
    await("dfs", () -> Files.exists(dir.resolve("dfs/ready")));
    launch("master", "-Xmx384m", List.of(), "org.apache.hadoop.hbase.master.HMaster", "start");
    startRegionServer(1);
    startRegionServer(2);
    startTxService();
    awaitHBase(2);
  }

  /** Starts region server {@code n} (1 or 2), on a new port if it ran before. */
  public void startRegionServer(int n) throws IOException {
    int port = freePort();
    regionServerPorts.put(port, "rs" + n);
    launch("rs" + n, "-Xmx512m", List.of(), "org.apache.hadoop.hbase.regionserver.HRegionServer",
        "-D", "hbase.regionserver.port=" + port, "start");
  }

  /** The process name ({@code rs1}, {@code rs2}) of the region server on {@code port}. */
  public String regionServerName(int port) {
    String name = regionServerPorts.get(port);
    if (name == null) {
      throw new IllegalArgumentException("no region server of this cluster on port " + port + " (there are "
          + regionServerPorts + ")");
    }
    return name;
  }

  /** Starts the transaction service over its state directory and waits until it answers. */
  public void startTxService() throws IOException, InterruptedException {
    Files.deleteIfExists(dir.resolve("tx.ready"));
    launch("tx", "-Xmx256m", List.of(), TxServiceProcess.class.getName(), zookeeper(), String.valueOf(txPort),
        dir.resolve("tx").toString());
    await("tx", () -> Files.exists(dir.resolve("tx.ready")));
    awaitPort("tx", txPort);
  }

  /** Kills a process with SIGKILL and waits for its end: a crash, nothing shut down. */
  public void kill(String name) throws InterruptedException {
    Process p = process(name);
    p.destroyForcibly();
    p.waitFor();
  }

  /** Stops a process with SIGTERM (its shutdown hooks run) and waits for its end. */
  public void stop(String name) throws InterruptedException {
    Process p = process(name);
    p.destroy();
    if (!p.waitFor(STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      p.waitFor();
    }
  }

  public Process process(String name) {
    Process p = processes.get(name);
    if (p == null) {
      throw new IllegalArgumentException("no process '" + name + "' in the cluster (there are " + processes.keySet() + ")");
    }
    return p;
  }

  /** The ZooKeeper quorum HBase and the transaction service are found through: {@code 127.0.0.1:PORT}. */
  public String zookeeper() {
    return "127.0.0.1:" + zkPort;
  }

  public Path directory() {
    return dir;
  }

  /** A client configuration for this cluster. */
  public Configuration clientConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.set("data.tx.zookeeper.quorum", zookeeper());
    return conf;
  }

  /** Waits until HBase has {@code regionServers} live region servers and answers an Admin call. */
  public void awaitHBase(int regionServers) throws Exception {
    Configuration conf = clientConfiguration();
    conf.setInt("hbase.client.retries.number", 3);
    try (Connection c = ConnectionFactory.createConnection(conf)) {
      await("hbase", () -> {
        try (Admin admin = c.getAdmin()) {
          return admin.getClusterMetrics().getLiveServerMetrics().size() >= regionServers
              && admin.listNamespaceDescriptors().length > 0;
        } catch (IOException | RuntimeException e) {
          return false;
        }
      });
    }
  }

  private void writeConfiguration(int masterPort) throws IOException {
    Map<String, String> site = new LinkedHashMap<>();
    site.put("hbase.cluster.distributed", "true");
    site.put("hbase.rootdir", "hdfs://127.0.0.1:" + nameNodePort + "/hbase");
    site.put("hbase.tmp.dir", dir.resolve("hbase-tmp").toString());
    site.put("hbase.zookeeper.quorum", "127.0.0.1");
    site.put("hbase.zookeeper.property.clientPort", String.valueOf(zkPort));
    site.put("hbase.master.port", String.valueOf(masterPort));
    site.put("hbase.master.info.port", "-1");
    site.put("hbase.regionserver.info.port", "-1");
    // one DataNode: one replica, and a WAL on one replica is not "low replication"
    site.put("dfs.replication", "1");
    // a killed region server's ZooKeeper session ends after 10 s, then the master recovers its regions
    site.put("zookeeper.session.timeout", "10000");
    site.put("hbase.regionserver.handler.count", "10");
    site.put("hbase.master.handler.count", "10");
    // as the mini cluster's (MiniCluster.tuneForTests): how long the cluster makes a client wait only
    site.put("hbase.master.event.waiting.time", "50");
    site.put("hbase.procedure.remote.dispatcher.delay.msec", "10");
    site.put("hbase.regionserver.msginterval", "1000");
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    site.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
        .append("</value></property>\n"));
    xml.append("</configuration>\n");
    Files.writeString(dir.resolve("conf/hbase-site.xml"), xml);
    Files.writeString(dir.resolve("conf/log4j2.properties"), String.join("\n",
        "status = warn",
        "appender.file.type = Console",
        "appender.file.name = out",
        "appender.file.layout.type = PatternLayout",
        "appender.file.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{2}: %m%n",
        "rootLogger.level = info",
        "rootLogger.appenderRef.out.ref = out",
        "logger.zk.name = org.apache.zookeeper",
        "logger.zk.level = warn",
        "logger.hdfs.name = org.apache.hadoop.hdfs.StateChange",
        "logger.hdfs.level = warn", ""));
  }

  private void launch(String name, String heap, List<String> extraFlags, String mainClass, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add(heap);
    command.add("-XX:+UseSerialGC");
    command.add("-XX:CICompilerCount=2");
    command.add("-XX:TieredStopAtLevel=1"); // C1 only: the JIT takes less of two shared cores
    command.add("-Dlog4j2.configurationFile=" + dir.resolve("conf/log4j2.properties"));
    command.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
    command.add("-Dsnapds.process=" + name);
    command.addAll(jvmFlags);
    command.addAll(extraFlags);
    command.add("-cp");
    command.add(dir.resolve("conf") + File.pathSeparator + classpath);
    command.add(mainClass);
    command.addAll(List.of(args));
    Path log = dir.resolve("logs").resolve(name + ".log");
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    processes.put(name, p);
    Files.writeString(dir.resolve("pids"), name + " " + p.pid() + "\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
  }

  private void awaitPort(String name, int port) throws IOException, InterruptedException {
    await(name, () -> {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return true;
      } catch (IOException e) {
        return false;
      }
    });
  }

  /**
   * Polls {@code ready} every 200 ms: a process's start has no hook to wait on from outside. Fails
   * at once, with the end of the process's log, if the process ends first.
   */
  private void await(String name, BooleanSupplier ready) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    Process p = processes.get(name);
    while (!ready.getAsBoolean()) {
      if (p != null && !p.isAlive()) {
        throw new IllegalStateException(name + " ended with exit code " + p.exitValue() + " before it was ready; "
            + "its log ends:\n" + tail(name));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " was not ready after " + START_TIMEOUT + "; its log ends:\n" + tail(name));
      }
      Thread.sleep(200);
    }
  }

  private String tail(String name) throws IOException {
    Path log = dir.resolve("logs").resolve(name + ".log");
    if (!Files.exists(log)) {
      return "(no log)";
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  /**
   * Stops every process, newest first: SIGTERM, then SIGKILL for whatever has not ended after
   * {@link #STOP_TIMEOUT}, children included. The data stays in the directory.
   */
  @Override
  public void close() {
    List<String> names = new ArrayList<>(processes.keySet());
    java.util.Collections.reverse(names);
    for (String name : names) {
      Process p = processes.get(name);
      if (p.isAlive()) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroy();
      }
    }
    for (String name : names) {
      Process p = processes.get(name);
      try {
        if (!p.waitFor(STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
          p.destroyForcibly();
          p.waitFor();
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The scripts' entry: {@code start DIR} starts the cluster, prints the command line's options
   * for it and leaves the processes running (their ids in {@code DIR/pids}); {@code stop DIR}
   * stops the processes listed there. The class path is this JVM's; the JVM flags come from the
   * system property {@code snapds.jdk17.flags}.
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !List.of("start", "stop").contains(args[0])) {
      System.err.println("usage: ProcessCluster start|stop DIR");
      System.exit(2);
    }
    Path dir = Path.of(args[1]).toAbsolutePath().normalize();
    if (args[0].equals("stop")) {
      System.exit(stopListed(dir) ? 0 : 1);
    }
    List<String> flags = List.of(System.getProperty("snapds.jdk17.flags", "").trim().split("\\s+"));
    ProcessCluster cluster = start(dir, System.getProperty("java.class.path"),
        flags.equals(List.of("")) ? List.of() : flags);
    Files.writeString(dir.resolve("options"), "--zookeeper " + cluster.zookeeper() + " --tx-service "
        + cluster.zookeeper() + "\n");
    System.out.println("--zookeeper " + cluster.zookeeper() + " --tx-service " + cluster.zookeeper());
    System.exit(0); // the processes run on: their output goes to files, not to this JVM
  }

  private static boolean stopListed(Path dir) throws IOException, InterruptedException {
    Path pids = dir.resolve("pids");
    if (!Files.exists(pids)) {
      System.err.println("no cluster in " + dir + " (no " + pids + ")");
      return false;
    }
    List<ProcessHandle> running = new ArrayList<>();
    for (String line : Files.readAllLines(pids)) {
      String[] f = line.trim().split(" ");
      Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(f[1]));
      // only a process of this cluster: its command line names the directory (a pid may be reused)
      h.filter(ProcessHandle::isAlive)
          .filter(x -> x.info().commandLine().map(c -> c.contains(dir.toString())).orElse(false))
          .ifPresent(running::add);
    }
    java.util.Collections.reverse(running);
    running.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
    for (ProcessHandle h : running) {
      long left = Math.max(1, deadline - System.nanoTime());
      try {
        h.onExit().get(left, java.util.concurrent.TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
        h.destroyForcibly();
      }
    }
    Files.delete(pids);
    System.out.println("stopped " + running.size() + " processes of " + dir);
    return true;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
