package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher as a new user runs it: {@code ./snapds} in new processes against the embedded
 * default, each command a new JVM that finds what the one before wrote in the home directory.
 * It builds the command line first when it has to. The one slow test of the module (about a minute).
 */
class LauncherTest {
  private static final Path ROOT = Path.of(System.getProperty("snapds.repo.root", "..")).toAbsolutePath().normalize();

  @TempDir
  Path tmp;

  private Cli.Result snapds(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ROOT.resolve("snapds").toString());
    command.addAll(List.of(args));
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process p = new ProcessBuilder(command).directory(tmp.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("snapds " + String.join(" ", args) + " did not end");
    }
    return new Cli.Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
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
