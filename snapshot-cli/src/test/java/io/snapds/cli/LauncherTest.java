package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher as a new user runs it: {@code ./snapds} in new processes against the embedded
 * default, each command a new JVM that finds what the one before wrote in the home directory
 * (through the home's server, which the first command starts). It builds the command line first
 * when it has to. One of the slow tests of the module (about a minute).
 */
class LauncherTest {
  @TempDir
  Path tmp;

  private Cli.Result snapds(String... args) throws IOException, InterruptedException {
    return new Launcher(tmp).run(args);
  }

  /** The first command started the home's server in the background; it must not outlive the test. */
  @AfterEach
  void stopServer() throws Exception {
    Cli.Result stop = snapds("--home", tmp.resolve("home").toString(), "server", "stop");
    assertEquals(0, stop.exitCode(), stop.toString());
  }

  @Test
  void newUserCreatesLoadsAndScansOnTheEmbeddedDefault() throws Exception {
    Path home = tmp.resolve("home");
    Path csv = tmp.resolve("prices.csv");
    Files.writeString(csv, "sku,price\nA-1,9.99\nB-2,5.00\n");

    Cli.Result help = snapds("load", "--help");
    assertEquals(0, help.exitCode(), help.toString());
    assertTrue(help.out().startsWith("Usage: snapds load"), help.toString());

    Cli.Result create = snapds("--home", home.toString(), "create", "shop:prices");
    assertEquals(0, create.exitCode(), create.toString());
    // the global options also go after the command
    Cli.Result list = snapds("list", "--home", home.toString());
    assertEquals(0, list.exitCode(), list.toString());
    assertTrue(list.outLines().get(1).matches("shop:prices\\s+-\\s+-\\s+-\\s+0"), list.toString());

    Cli.Result load = snapds("--home", home.toString(), "load", "shop:prices", csv.toString(), "--key", "sku");
    assertEquals(0, load.exitCode(), load.toString());
    Cli.Result scan = snapds("--home", home.toString(), "scan", "shop:prices");
    assertEquals(0, scan.exitCode(), scan.toString());
    assertEquals(List.of("KEY  d:price", "A-1  9.99", "B-2  5.00"), scan.outLines());

    Cli.Result missing = snapds("--home", home.toString(), "scan", "shop:nope");
    assertEquals(ExitCodes.NOT_FOUND, missing.exitCode(), missing.toString());
    assertEquals("snapds: dataset shop:nope not found\n", missing.err());
    assertTrue(Files.exists(home.resolve("logs/snapds.log")), "HBase logs to the home, not the terminal");
  }
}
