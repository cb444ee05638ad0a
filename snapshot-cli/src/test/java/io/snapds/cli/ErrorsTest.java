package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.cli.env.EnvironmentOptions;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What a user sees when something is wrong: one line on stderr, an exit code, no stack trace. */
@ExtendWith(MiniClusterExtension.class)
class ErrorsTest {
  @TempDir
  Path dir;

  private static void assertOneLine(Cli.Result r) {
    assertEquals(1, r.err().split("\n").length, r.toString());
    assertTrue(r.err().startsWith("snapds: "), r.toString());
    assertFalse(r.err().contains("\tat "), r.toString());
  }

  @Test
  void missingDatasetIsOneLineAndNotFound() {
    DatasetId id = MiniCluster.uniqueDataset("missing");
    for (String[] args : List.of(new String[] {"scan", id.toString()}, new String[] {"history", id.toString()},
        new String[] {"drop", id.toString()})) {
      Cli.Result r = Cli.run(args);
      assertEquals(ExitCodes.NOT_FOUND, r.exitCode(), r.toString());
      assertOneLine(r);
      assertEquals("snapds: dataset " + id + " not found\n", r.err());
    }
  }

  @Test
  void verboseAddsTheStackTrace() {
    Cli.Result r = Cli.run("show", MiniCluster.uniqueDataset("missing").toString(), "--verbose");
    assertEquals(ExitCodes.NOT_FOUND, r.exitCode());
    assertTrue(r.err().contains("\tat "), r.err());
  }

  @Test
  void wrongArgumentsAreUsageErrorsBeforeAnyEnvironmentOpens() {
    // (load without --key is no longer one: a dataset with a schema takes its key fields)
    List<EnvironmentOptions> opened = new ArrayList<>();
    for (String[] args : List.of(new String[] {"create"}, new String[] {"create", "bad name!"},
        new String[] {"create", "t:x", "--retain-last", "0"}, new String[] {"scan", "t:x", "--snapshot", "abc"},
        new String[] {"scan", "t:x", "--snapshot", "1", "--as-of", "2h"}, new String[] {"expire", "t:x"},
        new String[] {"frobnicate"}, new String[] {"load", "t:x"})) {
      CommandLine cmd = SnapdsCommand.commandLine(o -> {
        opened.add(o);
        throw new AssertionError("no environment for wrong arguments");
      });
      StringWriter err = new StringWriter();
      cmd.setErr(new PrintWriter(err, true));
      cmd.setOut(new PrintWriter(new StringWriter(), true));
      int code = cmd.execute(args);
      Cli.Result r = new Cli.Result(code, "", err.toString());
      assertEquals(ExitCodes.USAGE, code, String.join(" ", args) + ": " + r);
      assertOneLine(r);
    }
    assertTrue(opened.isEmpty());
  }

  @Test
  void retentionMessageNamesTheBadValue() {
    Cli.Result r = Cli.run("create", MiniCluster.uniqueDataset("r").toString(), "--retain-last", "0");
    assertEquals("snapds: retainLast must be >= 1, got 0\n", r.err());
  }

  @Test
  void unreadableInputFileIsBadInput() {
    DatasetId id = MiniCluster.uniqueDataset("nofile");
    Cli.Result r = Cli.run("load", id.toString(), dir.resolve("nope.csv").toString(), "--key", "id");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.toString());
    assertEquals("snapds: cannot read input file " + dir.resolve("nope.csv") + ": no such file\n", r.err());
    Cli.Result d = Cli.run("load", id.toString(), dir.toString(), "--key", "id", "--format", "csv");
    assertEquals(ExitCodes.BAD_INPUT, d.exitCode(), d.toString());
    assertTrue(d.err().contains("it is a directory"), d.err());
  }

  @Test
  void realHBaseWithoutTransactionServiceIsRefused() {
    CommandLine cmd = SnapdsCommand.commandLine(io.snapds.cli.server.Environments.standard());
    StringWriter err = new StringWriter();
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute("list", "--zookeeper", "localhost:1");
    assertEquals(ExitCodes.UNAVAILABLE, code, err.toString());
    assertTrue(err.toString().startsWith("snapds: a real HBase needs Tephra's transaction service: give --tx-service"),
        err.toString());
  }
}
