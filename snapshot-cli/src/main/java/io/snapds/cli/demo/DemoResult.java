package io.snapds.cli.demo;

import java.util.List;

/**
 * The demo's verdict: how often the reader read and which reads were torn, and any broken rule
 * of the shared builds (a source key built twice, jobs of one key given different snapshots, a
 * job that failed).
 */
public record DemoResult(long reads, int snapshotsRead, List<String> torn, List<String> problems) {
  public DemoResult {
    torn = List.copyOf(torn);
    problems = List.copyOf(problems);
  }

  public boolean consistent() {
    return torn.isEmpty();
  }

  public boolean ok() {
    return torn.isEmpty() && problems.isEmpty() && reads > 0;
  }
}
