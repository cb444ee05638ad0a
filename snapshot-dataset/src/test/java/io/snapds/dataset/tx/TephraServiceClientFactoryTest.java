package io.snapds.dataset.tx;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TxConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TephraServiceClientFactoryTest {
  /**
   * Tephra's ZooKeeper client retries an unreachable quorum forever; the factory gives up after
   * its timeout and names the quorum. (The bound on the test is a liveness guard: before the
   * factory had a timeout, this test hung until it.)
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void anUnreachableZooKeeperFailsNamingTheQuorum() throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    Configuration conf = new Configuration();
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, "127.0.0.1:" + deadPort);
    conf.setLong(TephraServiceClientFactory.ZOOKEEPER_CONNECT_TIMEOUT_MS, 2_000);
    try (TephraServiceClientFactory factory = new TephraServiceClientFactory()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> factory.create(conf));
      assertTrue(e.getMessage().contains("127.0.0.1:" + deadPort) && e.getMessage().contains("within 2000 ms"),
          e.getMessage());
    }
  }
}
