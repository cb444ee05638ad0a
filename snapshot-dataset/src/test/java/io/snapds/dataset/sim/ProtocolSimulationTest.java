package io.snapds.dataset.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The protocol simulation on a fixed set of seeds (see docs/design.md, "How the protocol is
 * checked"). {@code -Dsim.seeds=N} runs N seeds from {@code -Dsim.first} (default 1),
 * {@code -Dsim.seed=S} runs one, {@code -Dsim.steps=K} sets the steps of each, and
 * {@code -Dsim.faults=CRASH,STALL,...} the fault kinds. A failing seed prints its violations and
 * its last steps, and runs again the same with {@code -Dsim.seed}.
 */
class ProtocolSimulationTest {
  /** The fault kinds of the suite's run: every one. */
  static final Set<ProtocolSimulation.Fault> DEFAULT_FAULTS = EnumSet.allOf(ProtocolSimulation.Fault.class);

  @Test
  void everySeedKeepsEveryPromise() {
    List<Long> seeds = new ArrayList<>();
    String one = System.getProperty("sim.seed");
    if (one != null && !one.isBlank()) {
      seeds.add(Long.parseLong(one.trim()));
    } else {
      long first = Long.getLong("sim.first", 1);
      int n = Integer.getInteger("sim.seeds", 20);
      for (long s = first; s < first + n; s++) {
        seeds.add(s);
      }
    }
    int steps = Integer.getInteger("sim.steps", 3000);
    Set<ProtocolSimulation.Fault> faults = faults();
    long totalSteps = 0;
    Map<String, Long> totals = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    for (long seed : seeds) {
      ProtocolSimulation.Outcome o = new ProtocolSimulation(seed, steps, faults).run();
      totalSteps += o.steps();
      o.counts().forEach((k, v) -> totals.merge(k, v, Long::sum));
      if (!o.passed()) {
        failures.add(o.report());
      }
    }
    System.out.println("protocol simulation: " + seeds.size() + " seeds, " + totalSteps + " steps, faults "
        + faults + ", " + failures.size() + " failed; " + totals);
    if (!failures.isEmpty()) {
      fail(failures.size() + " of " + seeds.size() + " seeds broke a promise:\n" + String.join("\n", failures));
    }
    assertTrue(totals.getOrDefault("publishes", 0L) + totals.getOrDefault("distributed builds", 0L) > 0,
        "the simulation published nothing: it tested nothing");
    if (seeds.size() >= 10 && !"distributed".equals(System.getProperty("sim.focus"))) {
      assertTrue(totals.getOrDefault("snapshots cleaned", 0L) > 0 && totals.getOrDefault("split jobs", 0L) > 0,
          "cleanup deleted snapshots while readers read: " + totals);
      for (String done : List.of("stages", "stages published", "stages discarded", "group publishes", "group reads")) {
        assertTrue(totals.getOrDefault(done, 0L) > 0, "the simulation never ran '" + done + "': " + totals);
      }
    }
  }

  /** A seed is a run: the same seed takes the same steps, so a failing seed's trace is the bug's. */
  @Test
  void aSeedRepeatsItsRunExactly() {
    ProtocolSimulation.Outcome first = new ProtocolSimulation(7, 1500, DEFAULT_FAULTS).run();
    ProtocolSimulation.Outcome again = new ProtocolSimulation(7, 1500, DEFAULT_FAULTS).run();
    assertEquals(first.steps(), again.steps());
    assertEquals(first.counts(), again.counts());
    assertEquals(masked(first.trace()), masked(again.trace()));
  }

  /**
   * Snapshot ids are Tephra write pointers, taken from the wall clock, and lock-table rows of pins
   * and marks carry them: everything else of a step must repeat.
   */
  private static List<String> masked(List<String> trace) {
    return trace.stream().map(t -> t.replaceAll("\\d{10,}", "<id>").replaceAll("\\.lock from .*", ".lock from <row>"))
        .toList();
  }

  private static Set<ProtocolSimulation.Fault> faults() {
    String s = System.getProperty("sim.faults");
    if (s == null || s.isBlank()) {
      return DEFAULT_FAULTS;
    }
    Set<ProtocolSimulation.Fault> out = EnumSet.noneOf(ProtocolSimulation.Fault.class);
    for (String f : s.split(",")) {
      if (f.trim().equalsIgnoreCase("all")) {
        return EnumSet.allOf(ProtocolSimulation.Fault.class);
      }
      if (!f.isBlank()) {
        out.add(ProtocolSimulation.Fault.valueOf(f.trim().toUpperCase()));
      }
    }
    return out;
  }
}
