package io.snapds.cli;

import io.snapds.cli.demo.Demo;
import io.snapds.cli.demo.DemoResult;
import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {"The main job end to end, in about a minute: concurrent jobs share the builds of their",
        "source keys (time slices) through the lock table while a reader checks, in Tephra transactions,",
        "that every snapshot it pins is complete; then retention, a rollback and a cleanup.",
        "Exit code 6 if any read was inconsistent, 1 if a job or a shared-build rule failed."})
final class DemoCommand extends EnvCommand {
  @Option(names = "--dataset", paramLabel = "DATASET", description = "Dropped and created again (default: demo:prices).")
  DatasetId dataset = DatasetId.of("demo", "prices");

  @Option(names = "--jobs", paramLabel = "N", description = "Concurrent jobs (default: 20).")
  int jobs = 20;

  @Option(names = "--keys", paramLabel = "N", description = "Source keys, one-hour slices (default: 4).")
  int keys = 4;

  @Option(names = "--rows", paramLabel = "N", description = "Rows per built snapshot (default: 5000).")
  int rows = 5000;

  private Demo.Settings settings;

  @Override
  void validate() {
    String day = LocalDate.now(ZoneOffset.UTC).toString();
    List<String> slices = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      slices.add(String.format("%sT%02d:00/%02d:00", day, 10 + i, 11 + i));
    }
    settings = new Demo.Settings(dataset, jobs, slices, rows);
  }

  @Override
  int run(Environment env) throws InterruptedException {
    long t0 = System.nanoTime();
    out().printf("snapds demo on %s%n", env.description());
    DemoResult result = new Demo(env.datasets(), out()).run(settings);
    out().printf("demo took %.1f s%n", (System.nanoTime() - t0) / 1e9);
    out().flush();
    if (!result.consistent()) {
      return ExitCodes.INCONSISTENT;
    }
    return result.ok() ? ExitCodes.OK : ExitCodes.FAILED;
  }
}
