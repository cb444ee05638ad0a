package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.sim.ProtocolSimulation;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The protocol simulation's workload and checker on the real mini cluster (three region servers,
 * Tephra's manager), with free-running threads instead of the scheduler: the in-memory model of
 * HBase that the simulation runs on is itself checked against HBase here. Bounded in time:
 * {@code -Dsoak.seconds} (default 40) and {@code -Dsoak.seed}.
 */
@ExtendWith(MiniClusterExtension.class)
class ProtocolSoakIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void theSimulatedWorkloadKeepsEveryPromiseOnHBase() throws java.io.IOException {
    long seed = Long.getLong("soak.seed", System.currentTimeMillis() % 100_000);
    Duration time = Duration.ofSeconds(Long.getLong("soak.seconds", 40));
    // The test cluster's clients give up after about 2 s of retries, so that failure tests fail
    // fast; here regions split and merge all the time, and a region closing on a loaded machine
    // can take longer than that (a split job's reader then failed with RetriesExhaustedException,
    // NotServingRegionException "is closing", seed 28080). The soak's clients retry for about
    // 10 s, still far below HBase's default, as a task's client on a cluster would.
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(cluster.configuration());
    conf.setInt("hbase.client.retries.number", 35);
    try (org.apache.hadoop.hbase.client.Connection patient =
        org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(conf)) {
      run(patient, seed, time);
    }
  }

  private void run(org.apache.hadoop.hbase.client.Connection connection, long seed, Duration time) {
    // crashes (at transaction calls), stalls, clock jumps and skew, region splits and merges, timeouts
    ProtocolSimulation.Outcome o = new ProtocolSimulation(connection, cluster.txClient(),
        MiniCluster.uniqueDataset("soak"), seed, time, EnumSet.of(ProtocolSimulation.Fault.CRASH,
            ProtocolSimulation.Fault.STALL, ProtocolSimulation.Fault.CLOCK_JUMP, ProtocolSimulation.Fault.CLOCK_SKEW,
            ProtocolSimulation.Fault.REGION_CHANGES, ProtocolSimulation.Fault.TX_TIMEOUT)).run();
    System.out.println("protocol soak on the mini cluster: seed " + seed + ", " + o.counts());
    assertTrue(o.passed(), o.report());
    assertTrue(o.counts().getOrDefault("publishes", 0L) > 0 && o.counts().getOrDefault("reads", 0L) > 0,
        "the soak published and read: " + o.counts());
  }
}
