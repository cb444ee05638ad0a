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
  void theSimulatedWorkloadKeepsEveryPromiseOnHBase() {
    long seed = Long.getLong("soak.seed", System.currentTimeMillis() % 100_000);
    Duration time = Duration.ofSeconds(Long.getLong("soak.seconds", 40));
    // crashes (at transaction calls), stalls, clock jumps and skew, region splits and merges, timeouts
    ProtocolSimulation.Outcome o = new ProtocolSimulation(cluster.connection(), cluster.txClient(),
        MiniCluster.uniqueDataset("soak"), seed, time, EnumSet.of(ProtocolSimulation.Fault.CRASH,
            ProtocolSimulation.Fault.STALL, ProtocolSimulation.Fault.CLOCK_JUMP, ProtocolSimulation.Fault.CLOCK_SKEW,
            ProtocolSimulation.Fault.REGION_CHANGES, ProtocolSimulation.Fault.TX_TIMEOUT)).run();
    System.out.println("protocol soak on the mini cluster: seed " + seed + ", " + o.counts());
    assertTrue(o.passed(), o.report());
    assertTrue(o.counts().getOrDefault("publishes", 0L) > 0 && o.counts().getOrDefault("reads", 0L) > 0,
        "the soak published and read: " + o.counts());
  }
}
