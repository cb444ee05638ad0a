package io.snapds.cli.env;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase in standalone mode inside this process, the way {@code hbase master start} runs it
 * without a cluster: a ZooKeeper server on a free port and a {@link LocalHBaseCluster} (one master,
 * one region server, ports chosen free) whose root directory is on the local file system under
 * the home. Everything it stores stays there, so the next process finds it again. ZooKeeper, the
 * master and the region server listen on loopback only.
 *
 * <p>ZooKeeper's sessions are stored with its data, so a ZooKeeper started over the files of a
 * process that was killed would keep that process's sessions, and their ephemeral nodes, until
 * each session times out: the old master's (10 s: the new master waits to become active) and
 * the old transaction service's leader election and discovery nodes (30 s: the new service
 * cannot lead, and clients are sent to the dead one's address and back off). Every session
 * found in the files belongs to a process that is gone (whoever starts this holds the
 * {@link HomeLock}, and the new ZooKeeper has served no client yet), so they are closed before
 * HBase starts.
 */
public final class EmbeddedHBase implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedHBase.class);
  /** ZooKeeper's tick (its session timeouts are 2 to 20 ticks), as HBase's standalone mode runs it. */
  private static final int ZOOKEEPER_TICK_MS = 2_000;

  private final InProcessZooKeeper zookeeper;
  private final LocalHBaseCluster cluster;
  private final Configuration conf;

  private EmbeddedHBase(InProcessZooKeeper zookeeper, LocalHBaseCluster cluster, Configuration conf) {
    this.zookeeper = zookeeper;
    this.cluster = cluster;
    this.conf = conf;
  }

  /** Starts ZooKeeper and HBase over {@code home} and waits until the master is initialized. */
  public static EmbeddedHBase start(Path home) throws IOException, InterruptedException {
    Configuration conf = configuration(home);
    InProcessZooKeeper zookeeper = InProcessZooKeeper.start(home.resolve("zookeeper").resolve("zookeeper_0"),
        InetAddress.getLoopbackAddress().getHostAddress(), conf.getInt(HConstants.ZOOKEEPER_MAX_CLIENT_CNXNS,
            HConstants.DEFAULT_ZOOKEPER_MAX_CLIENT_CNXNS));
    conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, zookeeper.port());
    LocalHBaseCluster cluster;
    try {
      cluster = new LocalHBaseCluster(conf, 1, 1, HMaster.class, HRegionServer.class);
      cluster.startup();
      awaitMasterInitialized(cluster);
    } catch (IOException | InterruptedException | RuntimeException e) {
      zookeeper.close();
      throw e;
    }
    return new EmbeddedHBase(zookeeper, cluster, conf);
  }

  static Configuration configuration(Path home) {
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.CLUSTER_DISTRIBUTED, "false");
    conf.set(HConstants.HBASE_DIR, home.resolve("hbase").toUri().toString());
    conf.set("hbase.tmp.dir", home.resolve("tmp").toString());
    conf.set(HConstants.ZOOKEEPER_QUORUM, "localhost");
    conf.set(HConstants.ZOOKEEPER_DATA_DIR, home.resolve("zookeeper").toString());
    conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, 0); // a free one
    // every port on loopback: the RPC ports take no authentication, and they stay open for as long
    // as the home server runs; the names the servers announce are the same address, so clients
    // (all on this machine) reach them there
    String loopback = InetAddress.getLoopbackAddress().getHostAddress();
    conf.set("hbase.zookeeper.property.clientPortAddress", loopback);
    conf.set("hbase.master.ipc.address", loopback);
    conf.set("hbase.regionserver.ipc.address", loopback);
    conf.set("hbase.master.hostname", loopback);
    conf.set("hbase.unsafe.regionserver.hostname", loopback);
    // the local file system has no hflush/hsync capability; standalone HBase runs without it
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.set("hbase.wal.provider", "filesystem");
    // fast start: no web UIs, do not wait for more region servers than the one we start
    conf.setInt(HConstants.MASTER_PORT, 0);
    conf.setInt(HConstants.REGIONSERVER_PORT, 0);
    conf.setInt(HConstants.MASTER_INFO_PORT, -1);
    conf.setInt(HConstants.REGIONSERVER_INFO_PORT, -1);
    conf.setInt("hbase.master.wait.on.regionservers.mintostart", 1);
    conf.setInt("hbase.master.wait.on.regionservers.maxtostart", 1);
    conf.setInt("hbase.regionserver.msginterval", 200);
    conf.setInt("hbase.regionserver.handler.count", 10);
    conf.setInt(HConstants.ZK_SESSION_TIMEOUT, 10_000);
    return conf;
  }

  private static void awaitMasterInitialized(LocalHBaseCluster cluster) throws InterruptedException {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (true) {
      HMaster master = cluster.getActiveMaster();
      if (master != null && master.isInitialized()) {
        return;
      }
      if (cluster.getMasters().stream().noneMatch(t -> t.isAlive())) {
        throw new EnvironmentException("the embedded HBase master stopped while starting; see the log");
      }
      if (Instant.now().isAfter(deadline)) {
        throw new EnvironmentException("the embedded HBase did not start within " + START_TIMEOUT);
      }
      Thread.sleep(20);
    }
  }

  /** A client configuration for this HBase (ZooKeeper port included). */
  public Configuration clientConfiguration() {
    return new Configuration(conf);
  }

  /**
   * Stops HBase (regions are flushed and closed), then ZooKeeper. HBase's procedure executor may
   * list its leftover threads on standard output while it stops; that output is dropped, as it
   * would mix with the command's.
   */
  @Override
  public void close() {
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try {
      cluster.shutdown();
      cluster.join();
      zookeeper.close();
    } finally {
      System.setOut(stdout);
    }
  }

  /** The ZooKeeper server of this process (standalone, one server, on loopback, a free port). */
  private static final class InProcessZooKeeper implements AutoCloseable {
    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    private InProcessZooKeeper(ZooKeeperServer server, ServerCnxnFactory connections) {
      this.server = server;
      this.connections = connections;
    }

    /**
     * Starts it over {@code dir} (the directory HBase's {@code MiniZooKeeperCluster} used before,
     * so a home keeps its data) and closes the sessions found there.
     */
    static InProcessZooKeeper start(Path dir, String address, int maxConnections)
        throws IOException, InterruptedException {
      Files.createDirectories(dir);
      FileTxnLog.setPreallocSize(100 * 1024); // 100 KB log files, not 64 MB ones: HBase's use is small
      File files = dir.toFile();
      ZooKeeperServer server = new ZooKeeperServer(files, files, ZOOKEEPER_TICK_MS);
      ServerCnxnFactory connections = new NIOServerCnxnFactory();
      connections.configure(new InetSocketAddress(address, 0), maxConnections);
      try {
        connections.startup(server); // loads the files, sessions included
      } catch (IOException | InterruptedException | RuntimeException e) {
        connections.shutdown();
        throw e;
      }
      List<Long> left = new ArrayList<>(server.getZKDatabase().getSessions());
      for (long session : left) {
        server.closeSession(session); // deletes its ephemeral nodes, as its expiry would
      }
      if (!left.isEmpty()) {
        LOG.info("closed {} ZooKeeper session(s) of the process that used {} before", left.size(), dir);
      }
      return new InProcessZooKeeper(server, connections);
    }

    int port() {
      return connections.getLocalPort();
    }

    @Override
    public void close() {
      connections.shutdown(); // stops the server too
      try {
        server.getZKDatabase().close();
      } catch (IOException e) {
        // the process is ending
      }
    }
  }
}
