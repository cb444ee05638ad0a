package io.snapds.cli.server;

import io.snapds.cli.env.EmbeddedHBase;
import io.snapds.cli.env.EnvironmentException;
import io.snapds.cli.env.HomeLock;
import io.snapds.cli.env.TxServiceConnection;
import io.snapds.dataset.tx.LocalTransactionService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.tephra.TxConstants;
import org.apache.tephra.distributed.TransactionService;
import org.apache.tephra.shaded.com.google.common.collect.ArrayListMultimap;
import org.apache.tephra.shaded.org.apache.twill.discovery.ZKDiscoveryService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientServices;
import org.apache.tephra.zookeeper.TephraZKClientService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server of a home: the embedded HBase (with its ZooKeeper) and Tephra's transaction service
 * (thrift on loopback, announced in that ZooKeeper the way {@code TransactionServiceMain} does),
 * kept running for the commands of later processes, which connect to it as clients.
 *
 * <p>It holds the {@link HomeLock} for its whole life, so there is never a second server (nor an
 * in-process embedded command) on one home. When HBase and Tephra answer it writes
 * {@link ServerInfo}; it stops when {@code server.stop} appears in the home ({@code snapds server
 * stop}), when the process is asked to end (SIGTERM), or after {@code idle} without a command.
 * Stopping deletes the announcement first, then waits for the {@link CommandLock} (running
 * commands finish), then stops Tephra (its state is snapshotted to {@code tx/}) and HBase
 * (regions are flushed).
 *
 * <p>It also runs commands itself, for the launcher ({@link CommandService}): the commands of a
 * warm server then cost no JVM start and no connection.
 */
final class HomeServer {
  static final String STOP_FILE = "server.stop";
  private static final Logger LOG = LoggerFactory.getLogger(HomeServer.class);
  private static final Duration POLL = Duration.ofMillis(100);
  /**
   * How long a stop waits for the commands running inside the server before it interrupts them
   * (then it waits at most {@link CommandService#INTERRUPTED_WAIT_MS} more): a stop is bounded even
   * when a command would never end. Commands in their own JVMs are waited for through the
   * {@link CommandLock}: their users can stop them.
   */
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  private final Path home;
  private final Duration idle;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final AtomicBoolean stopping = new AtomicBoolean();
  private HomeLock lock;
  private EmbeddedHBase hbase;
  private ZKClientService zk;
  private TransactionService txService;
  private final CommandService.Runner runner;
  private SharedEnvironment commandEnv;
  private CommandService commands;
  private MetricsEndpoint metrics;
  private StatusPage page;

  private HomeServer(Path home, Duration idle, CommandService.Runner runner) {
    this.home = home;
    this.idle = idle;
    this.runner = runner;
  }

  /**
   * Runs the server of {@code home} in this process until it is stopped.
   *
   * @throws EnvironmentException if the home is in use or HBase or Tephra do not start
   */
  static void run(Path home, Duration idle, CommandService.Runner runner) throws InterruptedException {
    HomeServer server = new HomeServer(home.toAbsolutePath().normalize(), idle, runner);
    server.start();
    Thread hook = new Thread(server::stop, "snapds-server-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    server.serve();
    server.stop();
  }

  private void start() throws InterruptedException {
    long t0 = System.nanoTime();
    lock = HomeLock.acquire(home);
    try {
      Files.deleteIfExists(home.resolve(STOP_FILE));
      ServerInfo.delete(home); // left by a server that crashed
      hbase = EmbeddedHBase.start(home);
      Configuration conf = hbase.clientConfiguration();
      int zkPort = conf.getInt(HConstants.ZOOKEEPER_CLIENT_PORT, -1);
      startTransactionService(conf, "localhost:" + zkPort);
      commandEnv = new SharedEnvironment(home, ConnectionFactory.createConnection(conf),
          TxServiceConnection.connect("localhost:" + zkPort, conf));
      commands = CommandService.start(home, commandEnv, runner);
      metrics = MetricsEndpoint.start(0); // the datasets' metrics of the commands run here, on loopback
      // the status page, on loopback, behind the command service's token
      page = StatusPage.start(0, commandEnv, commands.token(), Duration.ofHours(1),
          io.snapds.cli.output.DatasetReport.DEFAULT_TIMELINE);
      ServerInfo.ofThisProcess(zkPort, commands, metrics, page).write(home);
      LOG.info("snapds server of {} ready in {} ms: ZooKeeper port {}", home, (System.nanoTime() - t0) / 1_000_000,
          zkPort);
    } catch (IOException | RuntimeException e) {
      shutDown();
      throw new EnvironmentException("starting the snapds server in " + home + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      shutDown();
      throw e;
    }
  }

  private void startTransactionService(Configuration base, String quorum) throws IOException {
    Configuration conf = new Configuration(base);
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, quorum);
    conf.set(TxConstants.Service.CFG_DATA_TX_BIND_ADDRESS, InetAddress.getLoopbackAddress().getHostAddress());
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      conf.setInt(TxConstants.Service.CFG_DATA_TX_BIND_PORT, free.getLocalPort());
    }
    zk = ZKClientServices.delegate(new TephraZKClientService(quorum, 30_000, null,
        ArrayListMultimap.<String, byte[]>create()));
    zk.startAndWait();
    txService = new TransactionService(conf, zk, new ZKDiscoveryService(zk),
        () -> LocalTransactionService.persistentManager(home.resolve("tx").toFile(), conf));
    txService.startAndWait();
  }

  /** Waits for a stop request or the idle timeout. */
  private void serve() throws InterruptedException {
    Path stopFile = home.resolve(STOP_FILE);
    Instant started = Instant.now();
    while (!stopped.await(POLL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      if (Files.exists(stopFile)) {
        LOG.info("stop requested");
        return;
      }
      if (!txService.isRunning()) {
        LOG.error("the Tephra transaction service stopped; stopping the server");
        return;
      }
      Instant lastUse = CommandLock.lastUsed(home);
      lastUse = lastUse.isAfter(commands.lastUsed()) ? lastUse : commands.lastUsed();
      lastUse = lastUse.isAfter(started) ? lastUse : started;
      if (!idle.isZero() && commands.running() == 0 && Instant.now().isAfter(lastUse.plus(idle))) {
        Optional<CommandLock> none = CommandLock.tryExclusive(home);
        if (none.isPresent()) {
          none.get().close();
          LOG.info("no command for {}; stopping", idle);
          return;
        }
      }
    }
  }

  /** Stops once: announcement gone, running commands finished, then Tephra, HBase, the lock. */
  private void stop() {
    if (!stopping.compareAndSet(false, true)) {
      try {
        stopped.await(); // the other caller is stopping; the JVM may end when it is done
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    ServerInfo.delete(home);
    LOG.info("stopping: waiting for running commands");
    if (commands != null) {
      commands.stop(STOP_GRACE.toMillis()); // those running inside this process
    }
    try (CommandLock none = CommandLock.exclusive(home)) {
      shutDown();
    } finally {
      stopped.countDown();
    }
  }

  private void shutDown() {
    if (commands != null) {
      commands.close();
    }
    if (metrics != null) {
      metrics.close();
    }
    if (page != null) {
      page.close();
    }
    if (commandEnv != null) {
      commandEnv.shutDown();
    }
    if (txService != null) {
      txService.stopAndWait();
    }
    if (zk != null) {
      zk.stopAndWait();
    }
    if (hbase != null) {
      hbase.close();
    }
    try {
      Files.deleteIfExists(home.resolve(STOP_FILE));
    } catch (IOException e) {
      // the next server deletes it
    }
    if (lock != null) {
      lock.close();
    }
    LOG.info("snapds server of {} stopped", home);
  }
}
