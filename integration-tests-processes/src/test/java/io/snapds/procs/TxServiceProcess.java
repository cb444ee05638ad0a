package io.snapds.procs;

import io.snapds.dataset.tx.LocalTransactionService;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TxConstants;
import org.apache.tephra.distributed.TransactionService;
import org.apache.tephra.shaded.com.google.common.collect.ArrayListMultimap;
import org.apache.tephra.shaded.org.apache.twill.discovery.ZKDiscoveryService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientServices;
import org.apache.tephra.zookeeper.TephraZKClientService;

/**
 * Tephra's transaction service in a process of its own, as {@code TransactionServiceMain} runs
 * it (thrift, announced in ZooKeeper for clients to find, leader elected there), with the
 * transaction manager's state (snapshots and edit log) in a local directory so that a restart
 * over the same directory continues where the last process stopped. Tephra's own main reads its
 * storage and settings through the HBase compatibility modules, which this project does not
 * ship; this is its few lines with the project's manager.
 *
 * <p>Arguments: {@code ZK_QUORUM PORT STATE_DIR}. Writes {@code STATE_DIR/../tx.ready} once the
 * service runs; a SIGTERM stops it, and the manager writes a last snapshot.
 */
public final class TxServiceProcess {
  private TxServiceProcess() {}

  public static void main(String[] args) throws Exception {
    String quorum = args[0];
    int port = Integer.parseInt(args[1]);
    Path stateDir = Path.of(args[2]).toAbsolutePath();
    Configuration conf = new Configuration();
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, quorum);
    conf.set(TxConstants.Service.CFG_DATA_TX_BIND_ADDRESS, "127.0.0.1");
    conf.setInt(TxConstants.Service.CFG_DATA_TX_BIND_PORT, port);
    // dead writers' transactions time out quickly, checked every second; a week's limit on timeouts
    conf.setInt(TxConstants.Manager.CFG_TX_CLEANUP_INTERVAL, 1);
    conf.setInt(TxConstants.Manager.CFG_TX_MAX_TIMEOUT, 7 * 86_400);
    ZKClientService zk = ZKClientServices.delegate(new TephraZKClientService(quorum, 10_000, null,
        ArrayListMultimap.<String, byte[]>create()));
    zk.startAndWait();
    TransactionService service = new TransactionService(conf, zk, new ZKDiscoveryService(zk),
        () -> LocalTransactionService.persistentManager(stateDir.toFile(), conf));
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.stopAndWait();
      zk.stopAndWait();
    }, "tx-service-stop"));
    service.startAndWait();
    Files.writeString(stateDir.resolveSibling("tx.ready"), "127.0.0.1:" + port);
    Thread.currentThread().join();
  }
}
