package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.testing.MiniCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs snapds commands in this JVM against the shared mini cluster, capturing their output. */
final class Cli {
  private Cli() {}

  record Result(int exitCode, String out, String err) {
    List<String> outLines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  static Result run(String... args) {
    MiniCluster cluster = MiniCluster.get();
    List<String> opened = new ArrayList<>();
    CommandLine cmd = SnapdsCommand.commandLine(options -> {
      opened.add(options.toString());
      return Environment.injected(cluster.connection(), cluster.txClient());
    });
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute(args);
    return new Result(code, out.toString(), err.toString());
  }
}
