package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.cli.server.Environments;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.tephra.TransactionManager;
import org.apache.tephra.TxConstants;
import org.apache.tephra.distributed.TransactionService;
import org.apache.tephra.metrics.TxMetricsCollector;
import org.apache.tephra.persist.NoOpTransactionStateStorage;
import org.apache.tephra.shaded.com.google.common.collect.ArrayListMultimap;
import org.apache.tephra.shaded.org.apache.twill.discovery.ZKDiscoveryService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientServices;
import org.apache.tephra.snapshot.SnapshotCodecProvider;
import org.apache.tephra.zookeeper.TephraZKClientService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The given-cluster environment: HBase found through ZooKeeper ({@code --zookeeper}, the mini
 * cluster's) and Tephra's distributed transaction service found through the same ZooKeeper
 * ({@code --tx-service}), started here the way Tephra's TransactionServiceMain starts it.
 */
@ExtendWith(MiniClusterExtension.class)
class ClusterEnvironmentTest {
  private static final String PROBE_TIMEOUT_MS = "snapds.cluster.probe.timeout.ms";
  private static ZKClientService zk;
  private static TransactionService txService;
  private static String quorum;

  @BeforeAll
  static void startTransactionService() throws Exception {
    Configuration conf = new Configuration(MiniCluster.get().configuration());
    quorum = conf.get(HConstants.ZOOKEEPER_QUORUM) + ":" + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT);
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, quorum);
    conf.set(TxConstants.Service.CFG_DATA_TX_BIND_ADDRESS, "localhost");
    try (ServerSocket free = new ServerSocket(0)) {
      conf.setInt(TxConstants.Service.CFG_DATA_TX_BIND_PORT, free.getLocalPort());
    }
    zk = ZKClientServices.delegate(new TephraZKClientService(quorum, 30_000, null,
        ArrayListMultimap.<String, byte[]>create()));
    zk.startAndWait();
    txService = new TransactionService(conf, zk, new ZKDiscoveryService(zk), () -> new TransactionManager(conf,
        new NoOpTransactionStateStorage(new SnapshotCodecProvider(conf)), new TxMetricsCollector()));
    txService.startAndWait();
  }

  @AfterAll
  static void stop() {
    if (txService != null) {
      txService.stopAndWait();
    }
    if (zk != null) {
      zk.stopAndWait();
    }
  }

  private static Cli.Result run(String... args) {
    CommandLine cmd = SnapdsCommand.commandLine(Environments.standard());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute(args);
    return new Cli.Result(code, out.toString(), err.toString());
  }

  @Test
  void commandsRunOnAGivenClusterWithTephrasTransactionService(@TempDir Path dir) throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("cluster");
    Path csv = dir.resolve("x.csv");
    Files.writeString(csv, "k,v\na,1\nb,2\n");
    String[] cluster = {"--zookeeper", quorum, "--tx-service", quorum};

    Cli.Result create = run(concat(cluster, "create", id.toString()));
    assertEquals(0, create.exitCode(), create.toString());
    Cli.Result load = run(concat(cluster, "load", id.toString(), csv.toString(), "-k", "k"));
    assertEquals(0, load.exitCode(), load.toString());
    Cli.Result scan = run(concat(cluster, "scan", id.toString()));
    assertEquals("KEY  d:v\na    1\nb    2\n", scan.out(), scan.toString());

    // (the mini cluster's own transaction manager is another world: only this service's clients see the data)
    Cli.Result history = run(concat(cluster, "history", id.toString(), "--json"));
    assertEquals(2, new com.fasterxml.jackson.databind.ObjectMapper().readTree(history.out()).get(0).get("rows").asInt(),
        history.toString());
  }

  @Test
  void anHBaseSiteFileNamesTheClusterToo(@TempDir Path dir) throws Exception {
    Configuration conf = MiniCluster.get().configuration();
    Path site = dir.resolve("hbase-site.xml");
    Files.writeString(site, "<configuration>\n"
        + "<property><name>hbase.zookeeper.quorum</name><value>" + conf.get(HConstants.ZOOKEEPER_QUORUM) + "</value></property>\n"
        + "<property><name>hbase.zookeeper.property.clientPort</name><value>" + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT)
        + "</value></property>\n</configuration>\n");
    DatasetId id = MiniCluster.uniqueDataset("site");
    Cli.Result create = run("--hbase-site", site.toString(), "--tx-service", quorum, "create", id.toString());
    assertEquals(0, create.exitCode(), create.toString());
    Cli.Result list = run("--hbase-site", site.toString(), "--tx-service", quorum, "list", "--json");
    assertTrue(list.out().contains("\"dataset\":\"" + id + "\""), list.toString());

    Cli.Result missing = run("--hbase-site", dir.resolve("nope.xml").toString(), "--tx-service", quorum, "list");
    assertEquals(ExitCodes.UNAVAILABLE, missing.exitCode(), missing.toString());
    assertEquals("snapds: cannot read HBase configuration " + dir.resolve("nope.xml") + "\n", missing.err());
  }

  @Test
  void unreachableClusterIsOneLineAndUnavailable(@TempDir Path dir) throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    // no ZooKeeper answers there: the command gives up at the probe's deadline, 20 s unless set
    System.setProperty(PROBE_TIMEOUT_MS, "2000");
    try {
      Cli.Result r = run("--zookeeper", "localhost:" + closedPort, "--local-tx", dir.toString(), "list");
      assertEquals(ExitCodes.UNAVAILABLE, r.exitCode(), r.toString());
      assertTrue(r.err().startsWith("snapds: cannot reach HBase at ZooKeeper localhost:" + closedPort + ": "), r.err());
      assertEquals(1, r.err().split("\n").length, r.err());

      System.setProperty(PROBE_TIMEOUT_MS, "soon");
      Cli.Result bad = run("--zookeeper", "localhost:" + closedPort, "--local-tx", dir.toString(), "list");
      assertEquals(ExitCodes.UNAVAILABLE, bad.exitCode(), bad.toString());
      assertEquals("snapds: bad snapds.cluster.probe.timeout.ms 'soon': a number of milliseconds above 0\n",
          bad.err());
    } finally {
      System.clearProperty(PROBE_TIMEOUT_MS);
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
